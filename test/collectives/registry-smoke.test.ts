// Every catalogued algorithm, on machines of different shapes, delivers what its operation
// requires (the harness verifies every rank's buffers) or fails only because the machine lacks
// its mechanism (or a feature of it, KNEM's I/OAT offload), with the driver's errno. That mechanism
// is one the algorithm declares it calls (`mechanisms`, which refuses a mechanism's options for
// algorithms that never call it), and an algorithm runs on no machine lacking one it declares: the
// declarations are what it does. The machines lack KNEM (all but zoot and ig), CMA (zoot, ig and a
// broadwell without it) or XPMEM (zoot, ig and a broadwell without it) apart from one another, so
// no undeclared call hides behind a declared one that fails first. An algorithm that declares it
// sends no point-to-point message takes the same time over either double copy.
import { describe, expect, it } from 'vitest';
import { paramDefaults } from '../../algorithms/algorithm.ts';
import { catalogue } from '../../algorithms/catalogue.ts';
import { runAlgorithm } from '../../algorithms/harness/simulate.ts';
import { loadPreset } from '../../hardware/presets.ts';
import type { MachineSpec } from '../../hardware/spec.ts';
import { ProcessError } from '../../sim/engine/errors.ts';
import { MechanismError } from '../../sim/node/errors.ts';

/** A preset whose kernel lacks `mechanism`. */
function without(name: string, mechanism: 'cma' | 'xpmem'): MachineSpec {
  const spec = loadPreset(name);
  return { ...spec, kernel: { ...spec.kernel, mechanisms: { ...spec.kernel.mechanisms, [mechanism]: false } } };
}

// Four ranks spread over sockets or NUMA nodes, where the machine has them.
const MACHINES: Array<[string, () => MachineSpec, number[]]> = [
  ['zoot', () => loadPreset('zoot'), [0, 5, 10, 15]],
  ['ig', () => loadPreset('ig'), [0, 7, 30, 47]],
  ['broadwell', () => loadPreset('broadwell'), [0, 1, 14, 27]],
  ['knl', () => loadPreset('knl'), [0, 2, 33, 67]],
  ['broadwell without XPMEM', () => without('broadwell', 'xpmem'), [0, 1, 14, 27]],
  ['broadwell without CMA', () => without('broadwell', 'cma'), [0, 1, 14, 27]],
];

describe('every catalogued algorithm', () => {
  const algorithms = catalogue.listAlgorithms();

  it('covers every operation family', () => {
    expect(algorithms.length).toBeGreaterThan(100);
  });

  it.each(MACHINES)('runs and verifies on %s, or reports the missing mechanism', (name, spec, cores) => {
    const machine = spec();
    let ran = 0;
    let failedForLack = 0;
    let withoutPointToPoint = 0;
    for (const info of algorithms) {
      const run = (params = {}) =>
        runAlgorithm({
          machine,
          cores,
          algorithm: info.name,
          call: { bytes: 1000, root: 1, params },
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
      const declared = info.mechanisms?.(paramDefaults(info)) ?? [];
      const lacking = declared.filter((m) => !machine.kernel.mechanisms[m]);
      try {
        const out = run();
        expect(out.times[0], info.name).toBeGreaterThan(0);
        expect(lacking, `${info.name} on ${name} ran without the mechanisms it declares`).toEqual([]);
        ran++;
        if (info.pointToPoint?.(paramDefaults(info)) === false) {
          // Open MPI's sm BTL instead of Nemesis moves every point-to-point message differently.
          expect(run({ shm: 'sm' }).times, `${info.name} on ${name} sends point-to-point`).toEqual(out.times);
          withoutPointToPoint++;
        }
      } catch (err) {
        const cause = err instanceof ProcessError ? err.cause : err;
        if (!(cause instanceof MechanismError && ['ENODEV', 'ENOSYS'].includes(cause.errno)))
          throw new Error(`${info.name} on ${name}: ${(err as Error).message}`, { cause: err });
        expect(declared, `${info.name} on ${name} calls ${cause.mechanism}, which it does not declare`).toContain(
          cause.mechanism,
        );
        failedForLack++;
      }
    }
    expect(ran).toBeGreaterThan(algorithms.length / 2);
    // Each of these machines lacks a mechanism some algorithm declares (KNEM, XPMEM or LiMIC), and
    // runs some algorithm that sends no point-to-point message.
    expect(failedForLack).toBeGreaterThan(0);
    expect(withoutPointToPoint).toBeGreaterThan(0);
  });
});
