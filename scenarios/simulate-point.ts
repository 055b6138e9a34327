// Runs one sweep point of a scenario with the simulator (the CLI's PointRunner): the algorithm
// through the harness, the iterations' times summarised, the trace totals as shares.
import { runAlgorithm, type RunOutcome, type RunRequest } from '../algorithms/harness/simulate.ts';
import { InputError } from '../common/input-error.ts';
import { ProcessError } from '../sim/engine/errors.ts';
import { MechanismError } from '../sim/node/errors.ts';
import { UnmodelledChoiceError } from '../algorithms/unmodelled.ts';
import { UnavailableError, type Point, type PointResult } from './point.ts';
import { arrivalDelays } from './skew.ts';

export function simulatePoint(point: Point): PointResult {
  return summarise(explainUnavailable(point, () => runAlgorithm(requestFor(point))));
}

/** The point run with every step and every resource's load kept (and with `flows`, which flows
 *  crossed each resource when), for a trace or the visualizer. */
export function simulatePointTraced(
  point: Point,
  opts: { flows?: boolean } = {},
): { result: PointResult; outcome: RunOutcome } {
  const outcome = explainUnavailable(point, () =>
    runAlgorithm({ ...requestFor(point), keepTrace: true, recordLoads: opts.flows ? 'flows' : true }),
  );
  return { result: summarise(outcome), outcome };
}

function requestFor(point: Point): RunRequest {
  // root: all runs every root in turn, each call its own arrival delays.
  const roots = point.root === 'all' ? point.cores.map((_, r) => r) : undefined;
  const calls = (point.warmup + point.iterations) * (roots?.length ?? 1);
  return {
    machine: point.machine,
    cores: point.cores,
    algorithm: point.algorithm,
    call: {
      bytes: point.bytes,
      root: point.root === 'all' ? 0 : point.root,
      params: point.params,
      counts: point.counts?.map((c) => c * point.bytes),
    },
    cache: point.cache,
    ...(point.buffers ? { buffers: point.buffers } : {}),
    iterations: point.iterations,
    warmup: point.warmup,
    seed: point.seed,
    ...(point.trains ? { trains: true } : {}),
    ...(point.exact ? { exact: true } : {}),
    ...(roots ? { roots } : {}),
    ...(point.skewNs ? { startDelays: arrivalDelays(point.seed, point.skewNs, calls, point.cores.length) } : {}),
  };
}

function summarise(outcome: RunOutcome): PointResult {
  const mean = outcome.times.reduce((a, b) => a + b, 0) / outcome.times.length;
  return {
    meanNs: mean,
    // Not Math.min(...times): a million iterations would overflow the call's arguments.
    minNs: outcome.times.reduce((a, b) => Math.min(a, b), Infinity),
    maxNs: outcome.times.reduce((a, b) => Math.max(a, b), -Infinity),
    breakdown: shares(outcome.totals),
    // Per transfer as reported: a ping-pong's round trip carries two.
    rankTimeNs:
      Object.values(outcome.totals).reduce((a, b) => a + b, 0) / (outcome.times.length * outcome.transfersPerCall),
    ...(outcome.replayed > 0 ? { replayed: { calls: outcome.replayed, of: outcome.times.length } } : {}),
    libraryBytes: outcome.libraryBytes,
  };
}

/**
 * A mechanism the machine's kernel lacks is the user's choice of algorithm and machine, not a bug:
 * report it as UnavailableError naming both (the cell becomes n/a), instead of a failed process
 * with a stack. A wrong machine constant that a mechanism reads (and checks) only once a rank
 * calls it is an InputError, passed on as it is.
 */
function explainUnavailable<T>(point: Point, run: () => T): T {
  try {
    return run();
  } catch (err) {
    const cause = err instanceof ProcessError ? err.cause : err;
    if (cause instanceof InputError) throw cause;
    const at = point.algorithmAt ?? { file: point.file, field: 'algorithms' };
    // A decision rule's pick this library does not model (Open MPI 4.1's tuned broadcast, some
    // sizes and rank counts): that cell alone is n/a, with the rule's reason.
    if (cause instanceof UnmodelledChoiceError) throw new UnavailableError(cause.message, at);
    if (cause instanceof MechanismError && (cause.errno === 'ENODEV' || cause.errno === 'ENOSYS'))
      throw new UnavailableError(
        `${point.algorithm} cannot run on machine ${point.machine.name}: ${cause.message}`,
        at,
      );
    throw err;
  }
}

function shares(totals: Record<string, number>): Record<string, number> {
  const sum = Object.values(totals).reduce((a, b) => a + b, 0);
  const out: Record<string, number> = {};
  for (const [kind, ns] of Object.entries(totals)) out[kind] = sum > 0 ? ns / sum : 0;
  return out;
}
