// The scenario files shipped under scenarios/files/ load against the real catalogue and presets,
// and the default scenario runs end to end through the CLI.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { catalogue } from '../../algorithms/catalogue.ts';
import { resolveMachine } from '../../hardware/index.ts';
import { DEFAULT_SCENARIO } from '../../scenarios/cli/run-command.ts';
import { loadScenarioFile } from '../../scenarios/scenario-file.ts';
import { loadScenarioText } from '../../scenarios/loader.ts';
import { inputErrorOf } from '../helpers/input-error.ts';
import { main } from '../../scenarios/cli/main.ts';

const dir = join(import.meta.dirname, '../../scenarios/files');
const resolve = (ref: string, baseDir: string) => resolveMachine(ref, { baseDir });

describe('scenario files', () => {
  it.each(readdirSync(dir).filter((f) => f.endsWith('.yaml')))('%s loads', (name) => {
    const s = loadScenarioFile(join(dir, name), { resolveMachine: resolve, catalogue });
    expect(s.algorithms.length).toBeGreaterThan(1);
  });

  it('the default scenario is the broadcast comparison on dancer from 16KiB to 4MiB', () => {
    const s = loadScenarioFile(DEFAULT_SCENARIO, { resolveMachine: resolve, catalogue });
    expect(s.operation).toBe('bcast');
    expect(s.machines.map((m) => m.ref)).toEqual(['dancer']);
    expect(s.algorithms.map((a) => a.name)).toEqual(['bcast:basic', 'bcast:binomial', 'bcast:knem-linear']);
    expect(s.sizes[0]).toBe(16 * 1024);
    expect(s.sizes.at(-1)).toBe(4 * 1024 * 1024);
    expect(s.sizes).toHaveLength(9);
  });

  it('`intranode run` with no file runs the default scenario and prints one row per size', async () => {
    let out = '';
    let err = '';
    const code = await main(['run'], {
      stdout: (t: string) => {
        out += t;
      },
      stderr: (t: string) => {
        err += t;
      },
    });
    expect(err).toBe('');
    expect(code).toBe(0);
    const rows = out.split('\n').filter((l) => /^\d/.test(l));
    expect(rows).toHaveLength(9);
    for (const row of rows) expect(row.trim().split(/\s+/)).toHaveLength(7);
  });
});

describe('transport parameters against the real catalogue', () => {
  it('refuses a fast box larger than its ring where the file writes it, before anything runs', () => {
    const text = readFileSync(DEFAULT_SCENARIO, 'utf8').replace(
      '  - basic\n',
      '  - { name: basic, params: { shm: sm, smFastBox: 5KiB } }\n',
    );
    const e = inputErrorOf(() => loadScenarioText(text, { file: 'fast.yaml', resolveMachine: resolve, catalogue }));
    const lines = text.split('\n');
    const line = lines.findIndex((l) => l.includes('smFastBox'));
    const column = lines[line].indexOf('5KiB') + 1;
    expect(e.message).toBe(
      `fast.yaml:${line + 1}:${column} (algorithms[0].params.smFastBox): parameter 'smFastBox' of bcast:basic must be at most 4KiB, got 5KiB`,
    );
  });
});

describe('a barrier moves no data', () => {
  const barrier = 'name: b\nmachine: dancer\nranks: 4\noperation: barrier\nalgorithms: [basic, sm]\n';
  const load = (text: string) => loadScenarioText(text, { file: 'b.yaml', resolveMachine: resolve, catalogue });
  it('so its scenario needs no sizes, and gives one row, at 0', () => {
    expect(load(barrier).sizes).toEqual([0]);
    expect(load(`${barrier}sizes: 0\n`).sizes).toEqual([0]);
  });
  it('and refuses sizes that would repeat that row', () => {
    const e = inputErrorOf(() => load(`${barrier}sizes: [0, 1KiB]\n`));
    expect(e.message).toBe("b.yaml:6:8 (sizes): operation 'barrier' moves no data: give sizes: 0, or no sizes");
  });
});
