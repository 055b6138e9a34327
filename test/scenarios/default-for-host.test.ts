// `intranode run --machine host` adapts the built-in default scenario to the host: one rank per core,
// and the single-copy broadcast over the mechanism it has, each substitution said.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadPreset } from '../../hardware/index.ts';
import type { MachineSpec } from '../../hardware/spec.ts';
import { DEFAULT_SCENARIO } from '../../scenarios/cli/run-command.ts';
import { adaptDefaultScenario } from '../../scenarios/default-for-host.ts';

const text = readFileSync(DEFAULT_SCENARIO, 'utf8');

function machine(cores: number, mechanisms: Partial<MachineSpec['kernel']['mechanisms']>): MachineSpec {
  const spec = structuredClone(loadPreset('dancer'));
  spec.cores = spec.cores.slice(0, cores);
  spec.kernel.mechanisms = { cma: false, knem: false, xpmem: false, limic: false, ioat: false, ...mechanisms };
  return spec;
}

describe('default scenario on the host', () => {
  it('takes one rank per core and CMA instead of a missing KNEM, and says so', () => {
    const { text: out, notes } = adaptDefaultScenario(text, machine(2, { cma: true }));
    expect(out).toMatch(/^ranks: 2$/m);
    expect(out).toMatch(/^ {2}- cma-linear$/m);
    expect(out).not.toMatch(/knem-linear/);
    expect(notes.join('\n')).toMatch(/2 ranks, one per core, instead of 8/);
    expect(notes.join('\n')).toMatch(/cma-linear instead of knem-linear/);
  });
  it('leaves the single-copy broadcast out where neither KNEM nor CMA exists', () => {
    const { text: out, notes } = adaptDefaultScenario(text, machine(4, {}));
    expect(out).not.toMatch(/knem-linear|cma-linear/);
    expect(notes.join('\n')).toMatch(/knem-linear left out/);
  });
  it('changes nothing on a host with eight cores and KNEM', () => {
    const { text: out, notes } = adaptDefaultScenario(text, machine(8, { knem: true, cma: true }));
    expect(out).toBe(text);
    expect(notes).toEqual([]);
  });
});
