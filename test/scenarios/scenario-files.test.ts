// The scenario files shipped under scenarios/files/ parse and validate. The registry and the
// presets are stood in for, so this checks the files' shape and names, not the simulator.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { findOperation, registerAlgorithm, registerOperation, type AlgorithmInfo } from '../../algorithms/registry.ts';
import { InputError } from '../../hardware/input-error.ts';
import { DEFAULT_SCENARIO } from '../../scenarios/cli/run-command.ts';
import { loadScenarioFile } from '../../scenarios/loader.ts';
import { fakeMachine } from './fixtures.ts';

// The seeds' machines by their core counts (Ma et al. 2010, section 4: Dancer 2×4, Zoot 4×4, Saturn 2×8, IG 8×6).
const MACHINES: Record<string, [number, number]> = { dancer: [2, 4], zoot: [4, 4], saturn: [2, 8], ig: [8, 6] };
const resolveMachine = (ref: string) => {
  const shape = MACHINES[ref];
  if (!shape) throw new InputError(`unknown preset '${ref}'`);
  return fakeMachine(ref, ...shape);
};

// Stand-ins for the collectives the files name, registered only where the real ones are absent.
const program: AlgorithmInfo['program'] = () => {
  throw new Error('not simulated here');
};
const NAMES: Record<string, string[]> = {
  bcast: ['basic', 'binomial', 'knem-linear', 'knem-hierarchical'],
  gather: ['basic', 'knem-linear'],
};
for (const [op, algs] of Object.entries(NAMES)) {
  if (findOperation(op)) continue;
  registerOperation({ name: op, description: op, rooted: true });
  for (const a of algs) {
    const params = a === 'knem-hierarchical' ? [{ name: 'segment', kind: 'bytes' as const, default: 262144, description: 'pipeline segment' }] : [];
    registerAlgorithm({ name: `${op}:${a}`, operation: op, description: a, params, program });
  }
}

const dir = join(import.meta.dirname, '../../scenarios/files');

describe('scenario files', () => {
  it.each(readdirSync(dir).filter((f) => f.endsWith('.yaml')))('%s loads', (name) => {
    const s = loadScenarioFile(join(dir, name), { resolveMachine });
    expect(s.algorithms.length).toBeGreaterThan(1);
  });

  it('the default scenario is the broadcast comparison on dancer from 16KiB to 4MiB', () => {
    const s = loadScenarioFile(DEFAULT_SCENARIO, { resolveMachine });
    expect(s.operation).toBe('bcast');
    expect(s.machines.map((m) => m.ref)).toEqual(['dancer']);
    expect(s.algorithms.map((a) => a.name)).toEqual(['bcast:basic', 'bcast:binomial', 'bcast:knem-linear']);
    expect(s.sizes[0]).toBe(16 * 1024);
    expect(s.sizes.at(-1)).toBe(4 * 1024 * 1024);
    expect(s.sizes).toHaveLength(9);
  });
});
