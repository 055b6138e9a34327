// CSV: a header line, then one row per point. Times stay in ns, the project's unit.
import type { ScenarioResult } from '../run.ts';
import { breakdownKinds, normalised } from './normalise.ts';

export interface CsvReportOptions {
  /** Adds one share_<kind> column per kind of step. */
  breakdown?: boolean;
}

export function formatCsvReport(result: ScenarioResult, opts: CsvReportOptions = {}): string {
  const s = result.scenario;
  const kinds = opts.breakdown ? breakdownKinds(result.tables.flatMap((t) => t.rows.flatMap((r) => r.cells))) : [];
  const header = [
    'scenario', 'machine', 'ranks', 'placement', 'operation', 'root', 'cache', 'algorithm', 'label',
    'bytes', 'mean_ns', 'min_ns', 'max_ns', 'normalized', ...kinds.map((k) => `share_${k}`),
  ];
  const lines = [header.map(quote).join(',')];
  for (const t of result.tables) {
    const placement = typeof t.placement === 'string' ? t.placement : t.placement.join(' ');
    for (const row of t.rows) {
      for (const c of row.cells) {
        const n = normalised(c, row.cells, s.baseline);
        const fields = [
          s.name, t.machine.spec.name, t.ranks, placement, s.operation, s.rooted ? s.root : '', s.cache,
          c.algorithm.name, c.algorithm.label, row.bytes, c.result.meanNs, c.result.minNs, c.result.maxNs,
          n ?? '', ...kinds.map((k) => c.result.breakdown[k] ?? 0),
        ];
        lines.push(fields.map((f) => quote(String(f))).join(','));
      }
    }
  }
  return `${lines.join('\n')}\n`;
}

/** RFC 4180: quote a field holding a comma, a quote or a line break. */
function quote(field: string): string {
  return /[",\r\n]/.test(field) ? `"${field.replaceAll('"', '""')}"` : field;
}
