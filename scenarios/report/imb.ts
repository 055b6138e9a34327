// `--format imb`: one block per algorithm in the layout of the Intel MPI Benchmarks, so simulated
// rows paste next to an IMB run. Differences to keep in mind when comparing: IMB's t_min/t_max
// are the fastest and slowest rank's average over the repetitions; here they are the fastest and
// slowest measured iteration (the time of an iteration already spans every rank). Mbytes/sec
// (10^6 bytes per second) appears for the point-to-point operations, as IMB prints it only there.
import { parametersText, placementName } from '../scenario.ts';
import { placedOn } from '../expand.ts';
import type { ResultCell, ResultTable, ScenarioResult } from '../run.ts';
import type { Scenario } from '../scenario.ts';
import { megabytesPerSecond, reportsBandwidth } from './bandwidth.ts';
import { alignColumns } from './columns.ts';

const RULE = `#${'-'.repeat(63)}`;

export function formatImbReport(result: ScenarioResult): string {
  const s = result.scenario;
  const blocks = result.tables.flatMap((t) => s.algorithms.map((_, i) => algorithmBlock(s, t, i)));
  return `${blocks.join('\n\n')}\n`;
}

function algorithmBlock(s: Scenario, t: ResultTable, index: number): string {
  const cells: ResultCell[] = t.rows.map((r) => r.cells[index]);
  const alg = s.algorithms[index];
  const lines = [
    RULE,
    `# Benchmarking ${alg.name}${alg.label !== alg.name.split(':')[1] ? ` (${alg.label})` : ''}`,
    `# #processes = ${t.ranks}`,
    `# Machine: ${t.machine.spec.name}; placement ${placementName(t.placement)}${s.smt ? ', smt' : ''} (${placedOn(t)}); cache ${s.cache}${s.buffers === 'fresh' ? '; fresh buffers' : ''}${s.rooted && (s.rootSweep || t.root === 'all') ? `; root ${t.root}` : ''}${s.seedSweep ? `; seed ${t.seed}` : ''}${t.railShare !== undefined ? `; railShare ${t.railShare}` : ''}${t.machine.parameters ? `; ${parametersText(t.machine.parameters)}` : ''}`,
    RULE,
  ];
  // Sizes the machine could not run are left out of the rows and named after them (a 0-byte call
  // may run where the mechanism it needs for data is missing).
  const ran = cells.filter((c) => c.unavailable === undefined);
  const reasons = new Map<string, number[]>();
  for (const c of cells)
    if (c.unavailable !== undefined) reasons.set(c.unavailable, [...(reasons.get(c.unavailable) ?? []), c.point.bytes]);
  const notes = [...reasons].map(([why, sizes]) =>
    ran.length === 0 ? `# n/a: ${why}` : `# n/a at ${sizes.join(', ')} bytes: ${why}`,
  );
  if (ran.length === 0) return [...lines, ...notes].join('\n');
  const bw = reportsBandwidth(s.operation);
  const header = ['#bytes', '#repetitions', 't_min[usec]', 't_max[usec]', 't_avg[usec]', ...(bw ? ['Mbytes/sec'] : [])];
  const rows = ran.map((c) => [
    String(c.point.bytes),
    String(s.iterations),
    usec(c.result.minNs),
    usec(c.result.maxNs),
    usec(c.result.meanNs),
    ...(bw ? [megabytes(megabytesPerSecond(c.point.bytes, c.result.meanNs))] : []),
  ]);
  return [...lines, ...alignColumns(header, rows, 0), ...notes].join('\n');
}

function usec(ns: number): string {
  return (ns / 1000).toFixed(2);
}

function megabytes(mb: number): string {
  return Number.isFinite(mb) ? mb.toFixed(2) : '-';
}
