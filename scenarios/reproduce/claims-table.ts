// The claims as one table (terminal and Markdown) and as JSON: one row per claim with its source,
// published and simulated values, tolerance, status, and for a FAIL the mechanism the model lacks.
// An input is checked against its published range too, though never counted: its `expect` says
// whether it lies inside (pass) or outside (fail, with `missing` saying why).
import { basename } from 'node:path';
import type { ClaimResult, SuiteRun } from './run-claims.ts';

const HEADER = ['id', 'source', 'published', 'simulated', 'tolerance', 'status', 'missing mechanism'];

/** Whether the claim came out as its `expect` says: a claim PASSes, and an input lies inside its
 *  range, exactly when its outcome holds. */
function asExpected(r: ClaimResult): boolean {
  return r.outcome.holds === (r.claim.expect === 'pass');
}

function status(r: ClaimResult): string {
  const s = r.outcome.status;
  if (s === 'INPUT') {
    const text = r.outcome.holds ? 'INPUT' : 'INPUT (outside its range)';
    if (r.claim.expect === 'unrun' || asExpected(r)) return text;
    return `${text} (expected ${r.outcome.holds ? 'outside' : 'inside'})`;
  }
  if (r.claim.expect === 'unrun') return `${s} (first run)`;
  const expected = r.claim.expect === 'pass' ? 'PASS' : 'FAIL';
  return s === expected ? s : `${s} (expected ${expected.toLowerCase()})`;
}

function row(r: ClaimResult): string[] {
  const c = r.claim;
  return [
    c.id,
    `${c.seed.slice(0, 3)} ${c.source}`,
    c.publishedText,
    r.outcome.simulated,
    c.toleranceText,
    status(r),
    r.outcome.holds ? '' : (r.outcome.missing ?? ''),
  ];
}

/** Counts only, no wall time: the same claims and model give the same line. */
export function summary(run: SuiteRun): string {
  const count = (s: string): number => run.results.filter((r) => r.outcome.status === s).length;
  const counted = run.results.length - count('INPUT');
  const unexpected = run.results.filter((r) => r.claim.expect !== 'unrun' && !asExpected(r)).length;
  return `${count('PASS')} of ${counted} claims reproduced, ${count('FAIL')} fail, ${count('INPUT')} inputs (not counted); ${unexpected} differ from their expected status; ${run.scenarios.length} scenarios`;
}

export function formatClaimsTable(run: SuiteRun): string {
  const rows = run.results.map(row);
  const widths = HEADER.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]): string =>
    cells
      .map((c, i) => c.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [line(HEADER), ...rows.map(line), '', summary(run), ''].join('\n');
}

export function formatClaimsMarkdown(run: SuiteRun): string {
  const esc = (s: string): string => s.replace(/\|/g, '\\|');
  const rows = run.results.map((r) => `| ${row(r).map(esc).join(' | ')} |`);
  return [`| ${HEADER.join(' | ')} |`, `| ${HEADER.map(() => '---').join(' | ')} |`, ...rows].join('\n');
}

export function formatClaimsJson(run: SuiteRun): string {
  const claims = run.results.map((r) => ({
    id: r.claim.id,
    seed: r.claim.seed,
    source: r.claim.source,
    statement: r.claim.statement,
    scenario: r.claim.scenario ? basename(r.claim.scenario) : null,
    published: r.claim.publishedText,
    tolerance: r.claim.toleranceText,
    simulated: r.outcome.simulated,
    value: r.outcome.value ?? null,
    status: r.outcome.status,
    holds: r.outcome.holds,
    expect: r.claim.expect,
    input: r.claim.input,
    fast: r.claim.fast,
    missing: r.outcome.missing ?? null,
  }));
  // No wall times: the same claims and model give the same bytes (the command prints times on stderr).
  const scenarios = run.scenarios.map((s) => ({ file: basename(s.file) }));
  return `${JSON.stringify({ claims, scenarios }, null, 2)}\n`;
}
