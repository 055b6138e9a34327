// `npm run bench:smpi`: the speed comparison with SimGrid's SMPI. The same 48-rank broadcast sweep
// (16 KiB to 16 MiB doubling, 10 calls per size, root 0) simulated by SMPI (bench/smpi/bcast-sweep.c,
// binomial tree, one 48-core host) and by intranode (bench/smpi/perf-bcast48.yaml, one algorithm at
// a time and all three together), each as a child process measured for CPU seconds (user + system)
// and peak memory. Where SMPI is not installed (Debian: libsimgrid-dev) it says so and measures
// intranode alone. Medians over --runs N (default 1: the sweep takes minutes).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { measureChild as measure, median, type Cost } from './child-cpu.ts';

const HERE = fileURLToPath(new URL('.', import.meta.url));
const LAUNCHER = fileURLToPath(new URL('../bin/intranode.mjs', import.meta.url));
const SCENARIO = join(HERE, 'smpi', 'perf-bcast48.yaml');
const ALGORITHMS = ['binomial', 'knem-linear', 'tuned'];

function medianCost(runs: number, once: () => Cost): Cost {
  const costs = Array.from({ length: runs }, once);
  const peaks = costs.flatMap((c) => (c.peakMiB === undefined ? [] : [c.peakMiB]));
  return { cpuS: median(costs.map((c) => c.cpuS)), ...(peaks.length ? { peakMiB: median(peaks) } : {}) };
}

function smpi(dir: string, runs: number): Cost | string {
  const which = (p: string) => spawnSync('bash', ['-c', `command -v ${p}`]).status === 0;
  if (!which('smpicc') || !which('smpirun')) return 'SMPI not installed (Debian: libsimgrid-dev): not measured';
  writeFileSync(
    join(dir, 'platform.xml'),
    `<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM "https://simgrid.org/simgrid.dtd">\n<platform version="4.1">\n` +
      `  <zone id="node" routing="Full"><host id="node" speed="10Gf" core="48"/></zone>\n</platform>\n`,
  );
  writeFileSync(join(dir, 'hostfile'), 'node\n'.repeat(48));
  const cc = spawnSync('smpicc', ['-O2', '-o', 'bcast-sweep', join(HERE, 'smpi', 'bcast-sweep.c')], {
    cwd: dir,
    encoding: 'utf8',
  });
  if (cc.status !== 0) return `smpicc failed: ${cc.stderr.trim().split('\n').at(-1) ?? ''}`;
  const argv = ['smpirun', '-np', '48', '-platform', 'platform.xml', '-hostfile', 'hostfile'];
  return medianCost(runs, () =>
    measure([...argv, '--cfg=smpi/bcast:binomial_tree', '--cfg=smpi/host-speed:10Gf', './bcast-sweep'], dir),
  );
}

function intranode(dir: string, algorithms: string[], runs: number): Cost {
  const file = join(dir, `perf-${algorithms.join('-')}.yaml`);
  writeFileSync(
    file,
    readFileSync(SCENARIO, 'utf8')
      .replace(/^algorithms: .*$/m, `algorithms: [${algorithms.join(', ')}]`)
      .replace(/^baseline: .*$/m, `baseline: ${algorithms[0]}`),
  );
  return medianCost(runs, () => measure([process.execPath, LAUNCHER, 'run', file, '--jobs', '1'], dir));
}

const runsArg = process.argv.indexOf('--runs');
const runs = runsArg >= 0 ? Number(process.argv[runsArg + 1]) : 1;
const dir = mkdtempSync(join(tmpdir(), 'intranode-smpi-'));
// Build the CLI once first, so no run pays for compiling it.
spawnSync(process.execPath, [LAUNCHER, '--version']);
const reference = smpi(dir, runs);
const rows: [string, Cost][] = [
  ...ALGORITHMS.map((a): [string, Cost] => [`intranode ${a}`, intranode(dir, [a], runs)]),
  ['intranode, all three in one run', intranode(dir, ALGORITHMS, runs)],
];
const fmt = (c: Cost) => [c.cpuS.toFixed(2), c.peakMiB === undefined ? '' : c.peakMiB.toFixed(0)];
const lines = [['what', 'CPU s', 'peak MiB', 'CPU / SMPI']];
if (typeof reference === 'string') console.log(reference);
else lines.push(['SMPI binomial (smpirun)', ...fmt(reference), '1.00']);
for (const [name, cost] of rows)
  lines.push([name, ...fmt(cost), typeof reference === 'string' ? '' : (cost.cpuS / reference.cpuS).toFixed(2)]);
const widths = lines[0].map((_, i) => Math.max(...lines.map((l) => l[i].length)));
for (const l of lines) console.log(l.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  '));
console.log(`(${runs} run${runs === 1 ? '' : 's'} each, medians; the 48-rank sweep of bench/smpi/perf-bcast48.yaml)`);
