// Runs one sweep point of a scenario with the simulator (the CLI's PointRunner): the algorithm
// through the harness, the iterations' times summarised, the trace totals as shares.
import { runAlgorithm } from '../algorithms/harness/simulate.ts';
import { InputError } from '../common/input-error.ts';
import { ProcessError } from '../sim/engine/errors.ts';
import { MechanismError } from '../sim/node/errors.ts';
import { UnavailableError, type Point, type PointResult } from './point.ts';
import { arrivalDelays } from './skew.ts';

export function simulatePoint(point: Point): PointResult {
  const roots = point.root === 'all' ? point.cores.map((_, r) => r) : undefined;
  const calls = (point.warmup + point.iterations) * (roots?.length ?? 1);
  const outcome = explainUnavailable(point, () =>
    runAlgorithm({
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
      ...(roots ? { roots } : {}),
      ...(point.skewNs ? { startDelays: arrivalDelays(point.seed, point.skewNs, calls, point.cores.length) } : {}),
    }),
  );
  const mean = outcome.times.reduce((a, b) => a + b, 0) / outcome.times.length;
  return {
    meanNs: mean,
    minNs: Math.min(...outcome.times),
    maxNs: Math.max(...outcome.times),
    breakdown: shares(outcome.totals),
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
    if (cause instanceof MechanismError && (cause.errno === 'ENODEV' || cause.errno === 'ENOSYS')) {
      throw new UnavailableError(`${point.algorithm} cannot run on machine ${point.machine.name}: ${cause.message}`, {
        file: point.file,
        field: 'algorithms',
      });
    }
    throw err;
  }
}

function shares(totals: Record<string, number>): Record<string, number> {
  const sum = Object.values(totals).reduce((a, b) => a + b, 0);
  const out: Record<string, number> = {};
  for (const [kind, ns] of Object.entries(totals)) out[kind] = sum > 0 ? ns / sum : 0;
  return out;
}
