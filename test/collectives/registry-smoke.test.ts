// Every catalogued algorithm, on machines of different shapes, delivers what its operation
// requires (the harness verifies every rank's buffers) or fails only because the machine lacks
// its mechanism, with the driver's errno.
import { describe, expect, it } from 'vitest';
import { catalogue } from '../../algorithms/catalogue.ts';
import { runAlgorithm } from '../../algorithms/harness/simulate.ts';
import { loadPreset } from '../../hardware/presets.ts';
import { ProcessError } from '../../sim/engine/errors.ts';
import { MechanismError } from '../../sim/node/errors.ts';

// Four ranks spread over sockets or NUMA nodes, where the machine has them.
const MACHINES: Array<[string, number[]]> = [
  ['zoot', [0, 5, 10, 15]],
  ['ig', [0, 7, 30, 47]],
  ['broadwell', [0, 1, 14, 27]],
  ['knl', [0, 2, 33, 67]],
];

describe('every catalogued algorithm', () => {
  const algorithms = catalogue.listAlgorithms();

  it('covers every operation family', () => {
    expect(algorithms.length).toBeGreaterThan(100);
  });

  it.each(MACHINES)('runs and verifies on %s, or reports the missing mechanism', (name, cores) => {
    const machine = loadPreset(name);
    let ran = 0;
    for (const info of algorithms) {
      const run = () =>
        runAlgorithm({
          machine,
          cores,
          algorithm: info.name,
          call: { bytes: 1000, root: 1, params: {} },
          cache: 'off',
          iterations: 1,
          warmup: 0,
          seed: 'smoke',
        });
      // Defined for another communicator size (Open MPI's two-process algorithms): it says so.
      if (info.ranks !== undefined && info.ranks !== cores.length) {
        expect(run).toThrow(`defined for ${info.ranks} ranks only`);
        continue;
      }
      try {
        const out = run();
        expect(out.times[0], info.name).toBeGreaterThan(0);
        ran++;
      } catch (err) {
        const cause = err instanceof ProcessError ? err.cause : err;
        if (!(cause instanceof MechanismError && ['ENODEV', 'ENOSYS'].includes(cause.errno)))
          throw new Error(`${info.name} on ${name}: ${(err as Error).message}`, { cause: err });
        expect(
          Object.values(machine.kernel.mechanisms).some((m) => !m),
          `${info.name} on ${name}`,
        ).toBe(true);
      }
    }
    expect(ran).toBeGreaterThan(algorithms.length / 2);
  });
});
