// --hwloc-machine reaches the hwloc import, for `machine show` and for `run`.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.ts';

const FILE = fileURLToPath(new URL('../fixtures/hwloc/v1-two-machines.xml', import.meta.url));

const cli = (argv: string[], cwd = process.cwd()) => runCli(argv, { cwd });

describe('--hwloc-machine', () => {
  it('picks one machine of a file that holds several', async () => {
    expect((await cli(['machine', 'show', FILE])).stderr).toContain('pick one with --hwloc-machine N');
    const second = await cli(['machine', 'show', FILE, '--hwloc-machine', '1']);
    expect(second.code).toBe(0);
    expect(second.stdout.split('\n')[0]).toContain('4 cores');
  });

  it('applies to the machine a scenario names', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'intranode-hwloc-'));
    writeFileSync(
      join(dir, 's.yaml'),
      `machine: ${FILE}\nranks: 2\noperation: pingpong\nalgorithms: [shm]\nsizes: [1KiB]\n`,
    );
    expect((await cli(['run', 's.yaml'], dir)).code).toBe(1);
    const r = await cli(['run', 's.yaml', '--hwloc-machine', '0'], dir);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.stdout).toContain('(1 package, 1 NUMA node, 2 cores)');
  });
});
