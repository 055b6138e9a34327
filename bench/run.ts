// `npm run bench`: runs every benchmark module and prints one table. Speed is measured here, never
// asserted in tests: the machines this runs on are shared and noisy, so each row is a median.
import type { BenchRow } from './types.ts';

const modules = ['./engine.ts', './flow.ts', './simulate.ts', './fingerprint.ts', './startup.ts'];

const rows: BenchRow[] = [];
for (const path of modules) {
  const mod = (await import(path)) as { run(): BenchRow[] | Promise<BenchRow[]> };
  rows.push(...(await mod.run()));
}

const header = ['benchmark', 'value', 'unit', 'target', 'ok'];
const table = rows.map((r) => [
  r.name,
  formatValue(r.value),
  r.unit,
  r.target ?? '',
  r.ok === undefined ? '' : r.ok ? 'yes' : 'NO',
]);
const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i].length)));
const line = (cells: string[]) =>
  cells
    .map((c, i) => (i === 1 ? c.padStart(widths[i]) : c.padEnd(widths[i])))
    .join('  ')
    .trimEnd();
console.log(line(header));
console.log(widths.map((w) => '-'.repeat(w)).join('  '));
for (const row of table) console.log(line(row));

function formatValue(v: number): string {
  if (Math.abs(v) >= 1e6) return `${(v / 1e6).toFixed(2)}M`;
  if (Math.abs(v) >= 100) return v.toFixed(0);
  return v.toFixed(2);
}
