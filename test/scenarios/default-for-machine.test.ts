// `intranode run --machine host` adapts the built-in default scenario to the host: one rank per core,
// and the single-copy broadcast over the mechanism it has, each substitution said. On any other
// machine (`--machine FILE`, no scenario file) it changes only what does not fit.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadPreset } from '../../hardware/index.ts';
import type { MachineSpec } from '../../hardware/spec.ts';
import { DEFAULT_SCENARIO } from '../../scenarios/cli/run-command.ts';
import { adaptDefaultScenario } from '../../scenarios/default-for-machine.ts';
import { runCli } from './run-cli.ts';

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
    // The description the report prints says what runs.
    expect(out).toMatch(/^description: ".*against linear KNEM; on host: 2 ranks, linear CMA for linear KNEM"$/m);
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

describe('default scenario on a machine given by file or name', () => {
  const on = (cores: number, mechanisms: Partial<MachineSpec['kernel']['mechanisms']>) =>
    adaptDefaultScenario(text, machine(cores, mechanisms), { name: 'my-node.yaml', everyCore: false });
  it('fewer cores than ranks: one rank per core, said with the machine named', () => {
    const { text: out, notes } = on(2, { cma: true });
    expect(out).toMatch(/^ranks: 2$/m);
    expect(notes).toEqual([
      "default scenario on machine 'my-node.yaml': 2 ranks, one per core, instead of 8",
      "default scenario on machine 'my-node.yaml': cma-linear instead of knem-linear (no KNEM module loaded; CMA present)",
    ]);
  });
  it('keeps its eight ranks where they fit', () => {
    const big = structuredClone(loadPreset('ig'));
    const { text: out, notes } = adaptDefaultScenario(text, big, { name: 'ig', everyCore: false });
    expect(out).toBe(text);
    expect(notes).toEqual([]);
  });
});

describe('intranode run --machine M, with no scenario file', () => {
  it('runs the default scenario on a machine with fewer cores than its ranks, and says what changed', async () => {
    // lynnfield: one package of four cores, with KNEM; the real command, in this thread.
    const r = await runCli(['run', '--machine', 'lynnfield', '--json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("intranode: default scenario on machine 'lynnfield': 4 ranks, one per core, instead of 8\n");
    const report = JSON.parse(r.stdout) as { tables: { ranks: number }[] };
    expect(report.tables.map((t) => t.ranks)).toEqual([4]);
  });
});
