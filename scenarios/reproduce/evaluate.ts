// A claim's simulated value, computed from its scenario's run, and its verdict against the
// published value widened by the tolerance. One function per measure kind; no claim has its own.
import { basename } from 'node:path';
import { formatBytes } from '../../common/bytes.ts';
import type { Claim, Measure, Published, SizeChoice, SizeSpan, Tolerance } from './claim.ts';
import type { RunCell, RunResult, RunRow, RunTable } from './run-result.ts';
import { renderMissing, type MissingParts } from './missing-figures.ts';
import { formatSize, InputError } from './scenario-adapter.ts';

export type Status = 'PASS' | 'FAIL' | 'INPUT';

export interface Outcome {
  status: Status;
  /** Whether the simulated value is within tolerance (an INPUT claim is checked too, but not counted). */
  holds: boolean;
  /** The simulated value as shown in the table. */
  simulated: string;
  /** The number behind it, where there is one (JSON). */
  value?: number;
  /** The claim's `missing` text with its figures computed from the run (missing-figures.ts). */
  missing?: string;
}

interface Verdict {
  holds: boolean;
  simulated: string;
  value?: number;
}

/**
 * Errors in a claim that only show against the run (a label or size the scenario lacks) point at the
 * claim. `against` is the run of the second scenario of a ratio-gap claim.
 */
export function evaluateClaim(claim: Claim, run: RunResult | undefined, against?: RunResult): Outcome {
  const v = verdict(claim, run, against);
  const missing = claim.missingParts && run ? missingText(claim, claim.missingParts, run) : claim.missing;
  return { status: claim.input ? 'INPUT' : v.holds ? 'PASS' : 'FAIL', ...v, ...(missing ? { missing } : {}) };
}

/** The `missing` text with its figures computed from the claim's table; a label or size the table
 *  lacks points at the claim's `missing`. */
function missingText(claim: Claim, parts: MissingParts, run: RunResult): string {
  if (parts.every((p) => typeof p === 'string')) return parts.join('');
  const where = claim.missingWhere ?? { ...claim.where, field: 'missing' };
  const fail = (detail: string): InputError => new InputError(`claim ${claim.id}: ${detail}`, where);
  const table = pickTable(claim, run, fail);
  return renderMissing(
    parts,
    (choice) => pickRows(table, choice, fail),
    (row, label) => cellOf(row, label, fail),
    fail,
  );
}

function verdict(claim: Claim, run: RunResult | undefined, againstRun: RunResult | undefined): Verdict {
  const m = claim.measure;
  const fail = (detail: string): InputError =>
    new InputError(`claim ${claim.id}: ${detail}`, {
      file: claim.where.file,
      line: claim.where.line,
      field: 'measure',
    });
  if (m.kind === 'unsupported') return { holds: false, simulated: 'not expressible' };
  if (!run) throw fail('the claim has no scenario to compute it from');
  if (m.kind === 'growth') return growth(claim, m, run, fail);
  if (m.kind === 'memory') return memory(claim, m, run, fail);
  const table = pickTable(claim, run, fail);
  const time = (row: RunRow, label: string): number => timeOf(row, label, fail);
  const rows = (choice: SizeChoice): RunRow[] => pickRows(table, choice, fail);
  const tol = claim.tolerance;
  switch (m.kind) {
    case 'ratio': {
      const pick = reducedRatio(table, m, fail);
      return inInterval(
        pick.v,
        claim.published,
        tol,
        `${fix(pick.v)}${'over' in m ? ` at ${formatSize(pick.bytes)}` : ''}`,
      );
    }
    case 'ratio-gap': {
      if (!againstRun) throw fail(`the scenario ${basename(m.against)} it is compared with has not run`);
      const here = reducedRatio(table, m, fail);
      const there = reducedRatio(pickTable(claim, againstRun, fail), m, fail);
      const gap = there.v - here.v;
      return inInterval(
        gap,
        claim.published,
        tol,
        `${fix(gap)} (${fix(there.v)} in ${basename(m.against)} − ${fix(here.v)})`,
      );
    }
    case 'ratio-range': {
      const ratios = rows(m).map((r) => time(r, m.of) / time(r, m.to));
      const lo = Math.min(...ratios);
      const hi = Math.max(...ratios);
      const { lo: pLo, hi: pHi } = widened(claim.published, tol);
      return { holds: lo >= pLo && hi <= pHi, simulated: `${fix(lo)}–${fix(hi)}`, value: hi };
    }
    case 'ordering': {
      const margin = 1 + (tol?.value ?? 0);
      let worst = { bytes: 0, v: -Infinity };
      for (const r of rows(m)) {
        const v = time(r, m.faster) / Math.min(...m.than.map((l) => time(r, l)));
        if (v > worst.v) worst = { bytes: r.bytes, v };
      }
      const holds = worst.v <= margin;
      return {
        holds,
        simulated: `${holds ? 'holds' : 'broken'}: worst ${fix(worst.v)}x at ${formatSize(worst.bytes)}`,
        value: worst.v,
      };
    }
    case 'crossover': {
      const span = rows(m);
      let from: number | undefined;
      for (let i = span.length - 1; i >= 0 && time(span[i], m.winner) <= time(span[i], m.loser); i--)
        from = span[i].bytes;
      if (from === undefined) return { holds: false, simulated: `${m.winner} never ahead` };
      return { ...inInterval(from, claim.published, tol, formatSize(from)), value: from };
    }
    case 'best-param': {
      const allowed = claim.published.kind === 'labels' ? claim.published.labels : [];
      const margin = 1 + (tol?.value ?? 0);
      const bests: string[] = [];
      let holds = true;
      for (const r of rows(m)) {
        const times = m.among.map((l) => ({ l, t: time(r, l) }));
        const best = times.reduce((a, b) => (b.t < a.t ? b : a));
        bests.push(best.l);
        const bestAllowed = Math.min(...times.filter((x) => allowed.includes(x.l)).map((x) => x.t));
        if (!(bestAllowed <= best.t * margin)) holds = false;
      }
      return { holds, simulated: compactRuns(bests) };
    }
    case 'spread': {
      const spreads = rows(m).map((r) => {
        const times = m.among.map((l) => time(r, l));
        return { bytes: r.bytes, v: Math.max(...times) / Math.min(...times) };
      });
      const worst = spreads.reduce((a, b) => (b.v > a.v ? b : a));
      return inInterval(worst.v, claim.published, tol, `${fix(worst.v)} at ${formatSize(worst.bytes)}`);
    }
    case 'share': {
      const shares = rows(m).map((r) => {
        const cell = cellOf(r, m.of, fail);
        return { bytes: r.bytes, v: m.category.reduce((sum, k) => sum + (cell.breakdown[k] ?? 0), 0) };
      });
      const pick = shares.reduce((a, b) => ((m.reduce === 'min' ? b.v < a.v : b.v > a.v) ? b : a));
      return inInterval(
        pick.v,
        claim.published,
        tol,
        `${fix(pick.v)}${'over' in m ? ` at ${formatSize(pick.bytes)}` : ''}`,
      );
    }
    case 'difference': {
      const [row] = rows({ at: m.at });
      const d = time(row, m.of) - time(row, m.to);
      return inInterval(d, claim.published, tol, `${fix(d)} ns`);
    }
  }
}

function timeOf(row: RunRow, label: string, fail: (d: string) => InputError): number {
  return cellOf(row, label, fail).meanNs;
}

function cellOf(row: RunRow, label: string, fail: (d: string) => InputError): RunCell {
  const cell = row.cells[label];
  if (!cell)
    throw fail(`the scenario has no algorithm labelled '${label}'; labels: ${Object.keys(row.cells).join(', ')}`);
  return cell;
}

/** time(of) / time(to) at the size, or its min or max over the range, with the size it is at. */
function reducedRatio(
  table: RunTable,
  m: { of: string; to: string; reduce: 'min' | 'max' } & SizeChoice,
  fail: (d: string) => InputError,
): { bytes: number; v: number } {
  const ratios = pickRows(table, m, fail).map((r) => ({
    bytes: r.bytes,
    v: timeOf(r, m.of, fail) / timeOf(r, m.to, fail),
  }));
  return ratios.reduce((a, b) => ((m.reduce === 'min' ? b.v < a.v : b.v > a.v) ? b : a));
}

function growth(
  claim: Claim,
  m: Extract<Measure, { kind: 'growth' }>,
  run: RunResult,
  fail: (d: string) => InputError,
): Verdict {
  const value = (cell: RunCell): number => (m.quantity === 'memory' ? cell.libraryBytes : cell.meanNs);
  let pts: { n: number; q: number }[];
  let shown: (n: number) => string;
  let unit = '';
  if ('over' in m) {
    // Across the sizes of one table: the span's first and last size must both be there.
    const rows = pickRows(pickTable(claim, run, fail), m, fail);
    pts = rows.map((row) => ({ n: row.bytes, q: value(cellOf(row, m.of, fail)) }));
    shown = formatSize;
  } else {
    const tables = run.tables.filter((t) => claim.machine === undefined || t.machine === claim.machine);
    if (tables.length < 2)
      throw fail('a growth measure needs a scenario that sweeps ranks (at least two tables on the machine)');
    pts = tables
      .map((t) => {
        const [row] = pickRows(t, { at: m.at }, fail);
        return { n: t.ranks, q: value(cellOf(row, m.of, fail)) };
      })
      .sort((a, b) => a.n - b.n);
    shown = String;
    unit = ' ranks';
  }
  const first = pts[0];
  const last = pts[pts.length - 1];
  const span = `${shown(first.n)}→${shown(last.n)}${unit}`;
  // Memory the library never allocated has no rate of growth; memory that appears from none has no
  // finite one.
  if (first.q === 0)
    return {
      holds: false,
      simulated:
        last.q === 0 ? `none allocated (${span})` : `from none to ${formatBytes(last.q, { space: true })} (${span})`,
    };
  const exponent = Math.log(last.q / first.q) / Math.log(last.n / first.n);
  return inInterval(exponent, claim.published, claim.tolerance, `${fix(exponent)} (${span})`);
}

/** The most the library allocates at one size in any table of the claim's machine. */
function memory(
  claim: Claim,
  m: Extract<Measure, { kind: 'memory' }>,
  run: RunResult,
  fail: (d: string) => InputError,
): Verdict {
  const tables = claimTables(claim, run);
  if (tables.length === 0) throw fail(`no table of the scenario is on ${claim.machine ?? 'any machine'}`);
  let most = { bytes: -1, ranks: 0 };
  for (const t of tables) {
    const [row] = pickRows(t, { at: m.at }, fail);
    const bytes = cellOf(row, m.of, fail).libraryBytes;
    if (bytes > most.bytes || (bytes === most.bytes && t.ranks > most.ranks)) most = { bytes, ranks: t.ranks };
  }
  const where = tables.length > 1 ? ` (${most.ranks} ranks)` : '';
  return inInterval(
    most.bytes,
    claim.published,
    claim.tolerance,
    `${formatBytes(most.bytes, { space: true })}${where}`,
  );
}

/** The tables of the claim's machine and rank count, where it names them. */
function claimTables(claim: Claim, run: RunResult): RunTable[] {
  return run.tables.filter(
    (t) =>
      (claim.machine === undefined || t.machine === claim.machine) &&
      (claim.ranks === undefined || t.ranks === claim.ranks),
  );
}

function pickTable(claim: Claim, run: RunResult, fail: (d: string) => InputError): RunTable {
  const matches = claimTables(claim, run);
  if (matches.length === 1) return matches[0];
  const known = run.tables.map((t) => `${t.machine}/${t.ranks} ranks`).join(', ');
  if (matches.length === 0)
    throw fail(
      `no table of the scenario is on ${claim.machine ?? 'any machine'}${claim.ranks ? ` with ${claim.ranks} ranks` : ''}; tables: ${known}`,
    );
  throw fail(`the scenario has several tables (${known}); name 'machine' (and 'ranks') in the claim`);
}

/** A span must be covered end to end: a claim about a range is checked over all of it. */
function pickRows(table: RunTable, choice: SizeChoice, fail: (d: string) => InputError): RunRow[] {
  if ('at' in choice) {
    const row = table.rows.find((r) => r.bytes === choice.at);
    if (!row) throw fail(`the scenario has no size ${formatSize(choice.at)} on ${table.machine}`);
    return [row];
  }
  const span: SizeSpan = choice.over;
  const rows = table.rows.filter((r) => r.bytes >= span.from && r.bytes <= span.to);
  if (!rows.some((r) => r.bytes === span.from) || !rows.some((r) => r.bytes === span.to)) {
    throw fail(
      `the scenario's sizes on ${table.machine} do not reach both ends of ${formatSize(span.from)}..${formatSize(span.to)}`,
    );
  }
  return rows;
}

function widened(p: Published, tol: Tolerance | undefined): { lo: number; hi: number } {
  if (p.kind !== 'interval') return { lo: -Infinity, hi: Infinity };
  if (!tol) return { lo: p.lo, hi: p.hi };
  if (tol.kind === 'factor') return { lo: p.lo / tol.value, hi: p.hi * tol.value };
  return { lo: p.lo - tol.value, hi: p.hi + tol.value };
}

function inInterval(v: number, p: Published, tol: Tolerance | undefined, shown: string): Verdict {
  const { lo, hi } = widened(p, tol);
  return { holds: v >= lo && v <= hi, simulated: shown, value: v };
}

function fix(v: number): string {
  return Math.abs(v) >= 100 ? v.toFixed(0) : v.toFixed(2);
}

/** ['a','a','b'] → "a ×2, b": which choice won, size after size. */
function compactRuns(labels: string[]): string {
  const out: string[] = [];
  for (let i = 0; i < labels.length;) {
    let j = i;
    while (j < labels.length && labels[j] === labels[i]) j++;
    out.push(j - i > 1 ? `${labels[i]} ×${j - i}` : labels[i]);
    i = j;
  }
  return out.join(', ');
}
