// Start-up cost of the CLI: `intranode machines` and `intranode --version` as a user runs them
// (through bin/intranode.mjs and its build in dist/), CPU seconds of the whole process.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { measureChild, median } from './child-cpu.ts';
import type { BenchRow } from './types.ts';

const LAUNCHER = fileURLToPath(new URL('../bin/intranode.mjs', import.meta.url));

export function run(): BenchRow[] {
  const dir = mkdtempSync(join(tmpdir(), 'intranode-startup-'));
  const cpu = (args: string[]) =>
    median(Array.from({ length: 5 }, () => measureChild([process.execPath, LAUNCHER, ...args], dir).cpuS));
  // The first run may build dist/; it is not counted.
  measureChild([process.execPath, LAUNCHER, '--version'], dir);
  const machines = cpu(['machines']);
  return [
    {
      name: 'start-up: `intranode machines`, CPU of the process (5 runs)',
      value: machines,
      unit: 's',
      target: '<= 0.3',
      ok: machines <= 0.3,
    },
    { name: 'start-up: `intranode --version`, CPU of the process (5 runs)', value: cpu(['--version']), unit: 's' },
  ];
}
