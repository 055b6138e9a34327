// A rank that arrives late: the harness's option for arrival skew (scenarios/skew.ts draws the delays).
import type { Program } from '../../sim/engine/program.ts';
import type { Simulation } from '../../sim/engine/simulation.ts';

/**
 * Runs `program` after `delayNs`, then reports the rank's own time in the call, from its arrival
 * to its return, as the rank's MPI_Wtime around the call would measure it.
 */
export function* afterDelay(
  sim: Simulation,
  delayNs: number,
  program: Program<void>,
  ownTime: (ns: number) => void,
): Program<void> {
  if (delayNs > 0) yield* sim.sleep(delayNs);
  const start = sim.now;
  yield* program;
  ownTime(sim.now - start);
}
