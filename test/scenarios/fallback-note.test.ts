// A column that asks for a single-copy mechanism the machine lacks runs over the double copy, as the
// MPI libraries do without the module; the table says so rather than printing the double copy's
// times under the mechanism's name unremarked.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'intranode-fallback-'));
writeFileSync(
  join(dir, 'f.yaml'),
  `name: fallback
machine: broadwell
operation: pingpong
ranks: 2
algorithms: [shm, { name: shm, params: { single: knem }, label: shm-knem }, { name: shm, params: { single: cma }, label: shm-cma }]
sizes: [1MiB]
iterations: 1
warmup: 0
`,
);

describe('a single-copy mechanism the machine lacks', () => {
  it('is named under the table; one it has is not', async () => {
    const r = await runCli(['run', 'f.yaml'], { cwd: dir });
    expect(r.code).toBe(0);
    const notes = r.stdout.split('\n').filter((l) => l.startsWith('# Note:'));
    expect(notes).toEqual([
      '# Note: shm-knem asks for single: knem, which broadwell lacks; its messages take the double copy, as the MPI libraries do without the module',
    ]);
    // The double copy's times, as the note says: the knem column equals the plain one.
    const row = r.stdout
      .split('\n')
      .find((l) => l.startsWith('1048576'))!
      .split(/\s+/);
    expect(row[4]).toBe(row[1]);
    expect(row[7]).not.toBe(row[1]);
  });
});
