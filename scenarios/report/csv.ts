// CSV: a header line, then one row per point. Times stay in ns, the project's unit.
import type { ScenarioResult } from '../run.ts';
import { threadName } from '../scenario.ts';
import { breakdownKinds, normalised } from './normalise.ts';

export interface CsvReportOptions {
  /** Adds one share_<kind> column per kind of step. */
  breakdown?: boolean;
  /** Adds the library_bytes column: what the library allocated beyond the operation's buffers. */
  memory?: boolean;
}

export function formatCsvReport(result: ScenarioResult, opts: CsvReportOptions = {}): string {
  const s = result.scenario;
  const cells = result.tables.flatMap((t) => t.rows.flatMap((r) => r.cells));
  const kinds = opts.breakdown ? breakdownKinds(cells) : [];
  // Only a run with an n/a cell has the column, so every other run's CSV keeps its shape.
  const reasons = cells.some((c) => c.unavailable !== undefined);
  const header = [
    'scenario',
    'machine',
    'ranks',
    'placement',
    'operation',
    'root',
    'cache',
    'algorithm',
    'label',
    'bytes',
    'mean_ns',
    'min_ns',
    'max_ns',
    'normalized',
    ...kinds.map((k) => `share_${k}`),
    ...(opts.memory ? ['library_bytes'] : []),
    ...(reasons ? ['unavailable'] : []),
    ...(s.seedSweep ? ['seed'] : []),
    ...(s.railShareSweep ? ['rail_share'] : []),
    ...(s.buffers === 'fresh' ? ['buffers'] : []),
    // One column per swept machine parameter, its value in the model's unit (ns, bytes, GB/s).
    ...(s.machineParameters ?? []).map((path) => `machine.${path}`),
  ];
  const lines = [header.map(quote).join(',')];
  for (const t of result.tables) {
    const placement =
      typeof t.placement === 'string'
        ? t.placement
        : t.placement.map((e) => (typeof e === 'number' ? String(e) : threadName(e))).join(' ');
    for (const row of t.rows) {
      for (const c of row.cells) {
        const n = normalised(c, row.cells, s.baseline);
        const na = c.unavailable !== undefined;
        // An n/a cell leaves its numbers empty (CSV's null) and gives the reason.
        const fields = [
          s.name,
          t.machine.spec.name,
          t.ranks,
          placement,
          s.operation,
          s.rooted ? t.root : '',
          s.cache,
          c.algorithm.name,
          c.algorithm.label,
          row.bytes,
          ...(na ? ['', '', ''] : [c.result.meanNs, c.result.minNs, c.result.maxNs]),
          n ?? '',
          ...kinds.map((k) => (na ? '' : (c.result.breakdown[k] ?? 0))),
          ...(opts.memory ? [na ? '' : c.result.libraryBytes] : []),
          ...(reasons ? [c.unavailable ?? ''] : []),
          ...(s.seedSweep ? [t.seed] : []),
          ...(s.railShareSweep ? [t.railShare ?? ''] : []),
          ...(s.buffers === 'fresh' ? [s.buffers] : []),
          ...(t.machine.parameters ?? []).map((p) => p.value),
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
