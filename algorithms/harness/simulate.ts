// Runs one algorithm: builds the node, gives every rank its buffers, runs the algorithm's event
// program on all ranks for warm-up and measured iterations, checks the data every rank ends with,
// and returns time per iteration and where it went. (A scenario's sweep points run through
// scenarios/simulate-point.ts.)
import { Simulation } from '../../sim/engine/simulation.ts';
import { Node } from '../../sim/node/node.ts';
import { World } from '../../sim/node/world.ts';
import { SimRank } from '../../sim/kernel/rank.ts';
import { afterDelay } from './start-delay.ts';
import { paramDefaults, type AlgorithmInfo } from '../algorithm.ts';
import type { Catalogue } from '../build-catalogue.ts';
import { catalogue as everything } from '../catalogue.ts';
import type { ArgsOf, OperationName } from '../operations.ts';
import type { OperationCall, OperationSemantics } from '../semantics.ts';
import type { MachineSpec } from '../../hardware/spec.ts';
import type { TraceEvent } from '../../sim/node/trace.ts';
import { LoadRecorder, type LoadSeries } from '../../sim/flow/load-recorder.ts';

export interface RunRequest {
  machine: MachineSpec;
  cores: number[];
  algorithm: string;
  call: OperationCall;
  cache: 'on' | 'off';
  iterations: number;
  warmup: number;
  seed: string;
  keepTrace?: boolean;
  /** Record every resource's load over the measured iterations (utilisation over time); 'flows'
   *  also keeps which flows cross each resource. */
  recordLoads?: boolean | 'flows';
  /**
   * Arrival skew: `startDelays[iteration][rank]` ns before the rank calls the operation (warm-up
   * iterations first). An iteration's time is then the slowest rank's own time in the call, as a
   * benchmark reporting the maximum over ranks measures it, instead of the span of the iteration.
   */
  startDelays?: number[][];
  /** Where `algorithm` is looked up; default: every catalogued algorithm. */
  catalogue?: Catalogue;
}

export interface RunOutcome {
  /** Span of each measured iteration as the operation reports it (ns). */
  times: number[];
  /** Rank-time per kind of step over the measured iterations (ns). */
  totals: Record<string, number>;
  events: TraceEvent[];
  /** With recordLoads: the load of every resource that carried bytes, over the measured iterations. */
  loads?: LoadSeries[];
  /** Per-rank argument objects after the last iteration, for data checks. */
  args: unknown[];
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
  // Parameters not given take the algorithm's declared defaults, whoever calls.
  const call: OperationCall = { ...req.call, params: { ...paramDefaults(info), ...req.call.params } };
  const sim = new Simulation({ seed: req.seed });
  const node = new Node(sim, req.machine, { keepTrace: req.keepTrace });
  const world = new World(node, req.cores);
  const loads = req.recordLoads
    ? new LoadRecorder(node.net, sim.now, { flows: req.recordLoads === 'flows' })
    : undefined;
  const ranks = req.cores.map((_, id) => new SimRank(world, id, call.params));
  const times: number[] = [];
  const args = ranks.map((rank) => semantics.setup(rank, call));
  for (let it = 0; it < req.warmup + req.iterations; it++) {
    // Every iteration starts from fresh inputs in the same buffers (so reductions do not pile up
    // terms, and a cache-on run finds last iteration's data still cached).
    if (req.cache === 'off') node.clearCaches();
    if (it === req.warmup) {
      node.trace.reset();
      loads?.reset(sim.now);
    }
    ranks.forEach((rank, i) => semantics.fill(rank, args[i], call));
    const start = sim.now;
    const delays = req.startDelays?.[it];
    const own: number[] = [];
    const procs = ranks.map((rank, i) => {
      const program = info.program(rank, args[i]);
      return sim.spawn(
        `rank ${rank.id} ${info.name}`,
        delays ? afterDelay(sim, delays[i], program, (ns) => (own[i] = ns)) : program,
      );
    });
    sim.run();
    for (const p of procs) if (!p.done) throw new Error(`${info.name}: rank process ${p.name} did not finish`);
    const span = delays ? Math.max(...own) : sim.now - start;
    if (it >= req.warmup) times.push(semantics.reportTime ? semantics.reportTime(span) : span);
    semantics.verify(args, call);
  }
  return {
    times,
    totals: node.trace.totalsByKind(),
    events: node.trace.events,
    ...(loads ? { loads: loads.used() } : {}),
    args,
  };
}
