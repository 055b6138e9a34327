// Runs a set of event programs as processes from the current time until the queue empties.
import type { Program } from '../../sim/engine/program.ts';
import type { Simulation } from '../../sim/engine/simulation.ts';

/** Starts program i as process `name(i)`, runs the simulation to the end; returns when each program finished. */
export function runPrograms(
  sim: Simulation,
  programs: Program<unknown>[],
  name = (i: number) => `rank ${i}`,
): number[] {
  const ends: number[] = [];
  programs.forEach((program, i) => {
    sim.spawn(
      name(i),
      (function* () {
        yield* program;
        ends[i] = sim.now;
      })(),
    );
  });
  sim.run();
  return ends;
}
