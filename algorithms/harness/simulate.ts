// Runs one algorithm: builds the node, gives every rank its buffers, runs the algorithm's event
// program on all ranks for warm-up and measured iterations, checks the data every rank ends with,
// and returns time per iteration and where it went. (A scenario's sweep points run through
// scenarios/simulate-point.ts.)
import { Simulation } from '../../sim/engine/simulation.ts';
import type { Program } from '../../sim/engine/program.ts';
import { Node } from '../../sim/node/node.ts';
import { World } from '../../sim/node/world.ts';
import { SimRank } from '../../sim/kernel/rank.ts';
import { useBufferCopy } from '../../sim/kernel/user-access.ts';
import { afterDelay } from './start-delay.ts';
import { warmupCallsMade } from './cold-warmup.ts';
import { addTotals, SteadyState, totalsBetween } from './steady-state.ts';
import { paramDefaults, type AlgorithmInfo } from '../algorithm.ts';
import type { Catalogue } from '../build-catalogue.ts';
import { catalogue as everything } from '../catalogue.ts';
import type { ArgsOf, OperationName } from '../operations.ts';
import type { OperationCall, OperationSemantics } from '../semantics.ts';
import type { MachineSpec } from '../../hardware/spec.ts';
import type { TraceEvent } from '../../sim/node/trace.ts';
import type { Buffer } from '../../sim/node/buffer.ts';
import { LoadRecorder, type LoadSeries } from '../../sim/flow/load-recorder.ts';

export interface RunRequest {
  machine: MachineSpec;
  cores: number[];
  algorithm: string;
  call: OperationCall;
  cache: 'on' | 'off';
  iterations: number;
  /** Calls before measuring; a cache-off run makes at least one (two behind a victim cache) first. */
  warmup: number;
  seed: string;
  keepTrace?: boolean;
  /** Record every resource's load over the measured iterations (utilisation over time); 'flows'
   *  also keeps which flows cross each resource. */
  recordLoads?: boolean | 'flows';
  /**
   * Arrival skew: `startDelays[call][rank]` ns before the rank calls the operation (warm-up
   * iterations first; with several `roots`, one entry per root of each iteration). A call's time
   * is then the slowest rank's own time in it, as a benchmark reporting the maximum over ranks
   * measures it, instead of the span of the call.
   */
  startDelays?: number[][];
  /**
   * Let a steady pipeline (the shared-memory LMT's chunks) advance many chunks at a time instead of
   * one by one (sim/kernel/shm/lmt-train.ts): the same results to rounding, in fewer events. Runs
   * that keep the trace or record loads never do: their steps are all wanted.
   */
  trains?: boolean;
  /** Where `algorithm` is looked up; default: every catalogued algorithm. */
  catalogue?: Catalogue;
  /**
   * Roots an application cycles through (`root: all`): every iteration calls the operation once
   * per root, in this order, each call timed on its own. Default: `call.root` alone.
   */
  roots?: number[];
  /**
   * 'fresh': every call allocates new buffers, as applications that malloc their buffers per call
   * do; their pages are absent until first touched (sim/node/first-touch.ts), except the inputs the
   * application fills before the call. Default 'reused': the same buffers call after call.
   */
  buffers?: 'reused' | 'fresh';
  /**
   * Simulate every call, even one that starts in the state an earlier call started in (see
   * steady-state.ts); a run with arrival skew or fresh buffers always does. A run that keeps its
   * trace or load series gets the replayed calls' steps and loads as well: the repeated call's,
   * shifted in time.
   */
  exact?: boolean;
  /**
   * The calls go through an MPI library's binding, which ends a call that moves nothing before any
   * algorithm runs (semantics' `returnsAtOnce`); false for a program that runs its algorithm
   * directly, as the native backend's do. Default true.
   */
  mpiBinding?: boolean;
  /**
   * With cache off: how many copies of each rank's buffers the calls rotate through, as IMB's
   * -off_cache does, call k using copy k mod `rotation`. It matters only to what a machine keeps per
   * page across calls (the kernel's first access to a page, sim/kernel/user-access.ts). Default:
   * every call a copy of its own, as a rotation longer than the run.
   */
  rotation?: number;
}

export interface RunOutcome {
  /** Span of each measured call as the operation reports it (ns): one per iteration and root. */
  times: number[];
  /** Rank-time per kind of step over the measured iterations (ns). */
  totals: Record<string, number>;
  /** Transfers each measured call reported as `times` carries (semantics' `transfersPerCall`). */
  transfersPerCall: number;
  events: TraceEvent[];
  /** With recordLoads: the load of every resource that carried bytes, over the measured iterations. */
  loads?: LoadSeries[];
  /** Per-rank argument objects after the last iteration, for data checks (after a replay, their
   *  buffers hold what the last call would have left: what the call it repeats left). */
  args: unknown[];
  /** What the run cost the simulator: engine events over all iterations, and flow re-solves. */
  cost: { events: number; solves: number };
  /** Measured calls taken from an earlier call in the same state instead of simulated (steady-state.ts). */
  replayed: number;
  /**
   * Memory the library allocated by the end of the first call, beyond the operation's own buffers:
   * the transports' shared segments (cells, fragments, copy buffers, as the first call grew them)
   * and the algorithm's temporaries (bytes).
   */
  libraryBytes: number;
}

/** Runs an algorithm and checks every rank's buffers afterwards; throws on wrong data or deadlock. */
export function runAlgorithm(req: RunRequest): RunOutcome {
  const cat = req.catalogue ?? everything;
  const found = cat.findAlgorithm(req.algorithm);
  if (!found) throw new Error(`unknown algorithm ${req.algorithm}`);
  return found.open((info) => runTyped(req, info, cat.semanticsOf(info.operation)));
}

function runTyped<Op extends OperationName>(
  req: RunRequest,
  info: AlgorithmInfo<Op>,
  semantics: OperationSemantics<ArgsOf<Op>>,
): RunOutcome {
  if (req.rotation !== undefined && !(Number.isInteger(req.rotation) && req.rotation >= 1))
    throw new RangeError(`rotation must be a whole number of buffer copies of at least 1, got ${req.rotation}`);
  if (info.ranks !== undefined && req.cores.length !== info.ranks)
    throw new Error(`${info.name} is defined for ${info.ranks} ranks only, not ${req.cores.length}`);
  // Parameters not given take the algorithm's declared defaults, whoever calls.
  const call: OperationCall = { ...req.call, params: { ...paramDefaults(info), ...req.call.params } };
  const sim = new Simulation({ seed: req.seed });
  const node = new Node(sim, req.machine, { keepTrace: req.keepTrace });
  const world = new World(node, req.cores, {
    trains: req.trains === true && !req.keepTrace && !req.recordLoads,
  });
  const ranks = req.cores.map((_, id) => new SimRank(world, id, call.params));
  const times: number[] = [];
  // One call per root of each iteration; each root's buffers are set up once, as an application
  // keeps them (a gather's receive buffer at each root).
  const calls = (req.roots ?? [call.root]).map((root) => ({ ...call, root }));
  const fresh = req.buffers === 'fresh';
  if (fresh) node.pages.trackNewBuffers();
  // What the operation's own buffers take, so that the rest of what is allocated is the library's.
  let argumentBytes = 0;
  const setup = (c: OperationCall) => {
    const before = node.allocatedBytes;
    const args = ranks.map((rank) => semantics.setup(rank, c));
    argumentBytes += node.allocatedBytes - before;
    return args;
  };
  const argsOf = fresh ? [] : calls.map(setup);
  // Cold caches are those of a benchmark that has run a while: full of its earlier calls' writes.
  // The warm-up runs at least the calls that start takes to pass (cold-warmup.ts), the ones the
  // scenario did not ask for first.
  if (req.cache === 'off') node.fillCachesWithEarlierWrites();
  const extra = (warmupCallsMade(req.cache, req.warmup, req.machine) - req.warmup) * calls.length;
  const total = extra + (req.warmup + req.iterations) * calls.length;
  const measured = extra + req.warmup * calls.length;
  const transfers = semantics.transfersPerCall ?? 1;
  const steady = req.exact || req.startDelays || fresh ? undefined : new SteadyState(calls.length, measured);
  // A replayed call's steps and loads are those of the call it repeats, later by the time between
  // them: the recorder keeps what it noted so it can note it again.
  const loads = req.recordLoads
    ? new LoadRecorder(node.net, sim.now, { flows: req.recordLoads === 'flows', log: steady !== undefined })
    : undefined;
  // With replays possible, where each measured call began: its time, how far the kept steps and the
  // load log stood, and what the buffers held before its inputs were filled: what the call before
  // it left, which the run's last call leaves again when it replays that one.
  const starts: { at: number; events: number; loads: number; left?: ReturnType<Node['saveContents']> }[] = [];
  let forgotten = 0;
  // Per measured call, what each kind of step took: a replay adds the totals of the calls it repeats.
  const callTotals: Record<string, number>[] = [];
  let replayedTotals: Record<string, number> = {};
  let replayed = 0;
  let eventsBefore = sim.eventsProcessed;
  let eventsOfPrevious = 0;
  let libraryBytes = 0;
  for (let k = 0; k < total; k++) {
    const c = calls[k % calls.length];
    if (fresh) argsOf[k % calls.length] = setup(c);
    const args = argsOf[k % calls.length];
    // Every call starts from fresh inputs, in the same buffers unless they are fresh (so
    // reductions do not pile up terms, and a cache-on run finds last call's data still cached).
    if (req.cache === 'off') {
      node.clearCaches();
      useBufferCopy(world, k % (req.rotation ?? Infinity), req.rotation !== undefined);
    } else useBufferCopy(world, 0);
    if (k === measured) {
      node.trace.reset();
      loads?.reset(sim.now);
    }
    if (steady && k >= measured)
      starts.push({
        at: sim.now,
        events: node.trace.events.length,
        loads: loads?.mark() ?? 0,
        left: node.saveContents(),
      });
    ranks.forEach((rank, i) => semantics.fill(rank, args[i], c));
    // The application wrote its inputs before calling: their pages fault outside the timed call.
    if (fresh) for (const buf of node.pages.absentBuffers()) if (holdsData(buf)) node.pages.present(buf);
    const replay = steady?.check(k, { sim, node, world, ranks, argsOf }, sim.now, eventsOfPrevious, total - k);
    if (replay) {
      const cycle = replay.from - replay.source;
      // Each replayed call starts where the one before ends, and its times are placed from its own
      // start, the repeated call's end on the next's start exactly: shifting by a multiple of the
      // cycle instead could round a step's start to before the previous step's end.
      let begin = sim.now;
      for (let m = replay.from; m < total; m++) {
        const src = replay.source + ((m - replay.from) % cycle) - measured;
        times.push(times[src]);
        replayedTotals = addTotals(replayedTotals, callTotals[src]);
        const first = starts[src];
        const next = starts[src + 1];
        const start = begin;
        const end = start + (next.at - first.at);
        const place = (t: number) => (t === next.at ? end : start + (t - first.at));
        if (req.keepTrace) node.trace.repeat(first.events, next.events, place);
        loads?.repeat(first.loads, next.loads, place);
        begin = end;
      }
      replayed = total - replay.from;
      // The buffers as the last call leaves them: as the call it repeats left them.
      const lastSource = replay.source + ((total - 1 - replay.from) % cycle) - measured;
      node.restoreContents(starts[lastSource + 1].left!);
      break;
    }
    // What the buffers held, and the loads logged, are wanted only from a call a later one can
    // still replay.
    const stale = steady ? Math.min(steady.earliestSource() - measured, starts.length - 1) : 0;
    for (; forgotten < stale; forgotten++) delete starts[forgotten].left;
    if (stale > 0) loads?.forget(starts[stale].loads);
    const totalsBefore = steady && k >= measured ? node.trace.totalsByKind() : undefined;
    // Arrival delays are the scenario's calls': none for the calls run before them.
    const delays = k < extra ? undefined : req.startDelays?.[k - extra];
    const own: number[] = [];
    const procs = ranks.map((rank, i) => {
      const ends = req.mpiBinding !== false && semantics.returnsAtOnce?.(args[i]) === true;
      const program = ends ? returnAtOnce() : info.program(rank, args[i]);
      return sim.spawn(
        `rank ${rank.id} ${info.name}`,
        afterDelay(sim, delays?.[i] ?? 0, program, (ns) => (own[i] = ns)),
      );
    });
    sim.run();
    for (const p of procs) if (!p.done) throw new Error(`${info.name}: rank process ${p.name} did not finish`);
    // With skew, the slowest rank's own time, from its arrival (IMB's t_max); without, from the
    // common start to the last rank's return, which is the same (own times then start together).
    // Not sim.now: events no rank waits for (a notice in flight) may still run after every return.
    const span = own.reduce((a, b) => Math.max(a, b), 0);
    if (k >= measured) times.push(span / transfers);
    if (totalsBefore) callTotals.push(totalsBetween(totalsBefore, node.trace.totalsByKind()));
    semantics.verify(args, c);
    if (k === 0) libraryBytes = node.allocatedBytes - argumentBytes;
    eventsOfPrevious = sim.eventsProcessed - eventsBefore;
    eventsBefore = sim.eventsProcessed;
  }
  return {
    times,
    replayed,
    totals: addTotals(node.trace.totalsByKind(), replayedTotals),
    transfersPerCall: transfers,
    events: node.trace.events,
    ...(loads ? { loads: loads.used() } : {}),
    args: argsOf[argsOf.length - 1],
    cost: { events: sim.eventsProcessed, solves: node.net.stats.solves },
    libraryBytes,
  };
}

function holdsData(buf: Buffer): boolean {
  return buf.content.pieces().some((p) => p.origin !== null);
}

/** A rank's call that the library ends before any algorithm runs (semantics' `returnsAtOnce`). */
function* returnAtOnce(): Program<void> {}
