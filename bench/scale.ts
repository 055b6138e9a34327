// `npm run bench:scale`: how the simulator's cost grows with ranks, on a 16-socket × 64-core machine
// (1,024 cores; bench/scale/machine.ts writes it from the Genoa preset's constants). A binomial
// broadcast and a pairwise all-to-all of 1 MiB, one call each, at doubling rank counts, each run as
// its own `intranode run` process measured for CPU seconds and peak memory, with the growth exponent
// between consecutive rank counts (2 = the time quadruples when ranks double). A run that takes
// longer than --limit seconds (default 120) ends that operation's series. Targets (issue: speed and
// scale): all-to-all at 1,024 ranks under 10 s and 1 GiB; broadcast growing linearly, all-to-all no
// faster than its message count (exponent ≤ 2).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { measureChild } from './child-cpu.ts';
import { writeScaleMachine } from './scale/machine.ts';

const LAUNCHER = fileURLToPath(new URL('../bin/intranode.mjs', import.meta.url));

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const limitS = arg('--limit', 120);
const maxRanks = arg('--max-ranks', 1024);
const dir = mkdtempSync(join(tmpdir(), 'intranode-scale-'));
const machine = writeScaleMachine(dir);

const series = [
  { operation: 'bcast', algorithm: 'binomial', from: 64 },
  { operation: 'alltoall', algorithm: 'pairwise', from: 16 },
];

const lines = [['operation', 'ranks', 'CPU s', 'peak MiB', 'growth exponent']];
for (const s of series) {
  let previous: { ranks: number; cpuS: number } | undefined;
  for (let ranks = s.from; ranks <= maxRanks; ranks *= 2) {
    const file = join(dir, `${s.operation}-${ranks}.yaml`);
    writeFileSync(
      file,
      [
        `name: scale-${s.operation}-${ranks}`,
        `machine: ${machine}`,
        `ranks: ${ranks}`,
        'placement: compact',
        `operation: ${s.operation}`,
        `algorithms: [${s.algorithm}]`,
        'sizes: [1MiB]',
        'cache: off',
        'iterations: 1',
        'warmup: 0',
        '',
      ].join('\n'),
    );
    // One process per point: --jobs 1 so the CPU is the simulation's, not a pool's.
    const cost = measureChild([process.execPath, LAUNCHER, 'run', file, '--jobs', '1'], dir);
    const exponent = previous ? Math.log(cost.cpuS / previous.cpuS) / Math.log(ranks / previous.ranks) : undefined;
    lines.push([
      `${s.operation} ${s.algorithm}`,
      String(ranks),
      cost.cpuS.toFixed(2),
      cost.peakMiB === undefined ? '' : cost.peakMiB.toFixed(0),
      exponent === undefined ? '' : exponent.toFixed(2),
    ]);
    console.error(lines.at(-1)?.join('  '));
    previous = { ranks, cpuS: cost.cpuS };
    if (cost.cpuS > limitS) break;
  }
}
const widths = lines[0].map((_, i) => Math.max(...lines.map((l) => l[i].length)));
for (const l of lines) console.log(l.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  '));
