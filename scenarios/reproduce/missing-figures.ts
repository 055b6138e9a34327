// Figures a claim's `missing` text quotes from the model. A figure pasted into the text goes stale
// the next time the model changes, so the text names the figure instead and the report computes it
// from the claim's own table of its scenario whenever it renders the text:
//   {{ratio knem-linear/basic at 64KiB}}            one size: 0.40
//   {{ratio knem-linear/basic over 16KiB..16MiB}}   every size of the span, lowest-highest: 0.40-0.48
//   {{mean basic at 16KiB}}                         one algorithm's mean time per call: 37.1 us
//   {{step pin of region-read at 1MiB}}             the rank-time one call spends in one kind of
//                                                   step (the breakdown's), summed over ranks (for a
//                                                   ping-pong, one transfer's): 44.1 us
// Labels are the scenario's algorithm labels; sizes as the scenario writes them.
import type { SizeChoice } from './claim.ts';
import type { RunCell, RunRow } from './run-result.ts';
import { parseSize, SizeError } from './scenario-adapter.ts';
import { parseSpan } from './size-span.ts';

export type Figure =
  | ({ kind: 'ratio'; of: string; to: string } & SizeChoice)
  | { kind: 'mean'; of: string; at: number }
  | { kind: 'step'; step: string; of: string; at: number };

/** The text's literal runs and figures, in order. */
export type MissingParts = (string | Figure)[];

const FIGURE = /\{\{([^}]*)\}\}/g;
const FORMS = '{{ratio A/B at SIZE}}, {{ratio A/B over FROM..TO}}, {{mean A at SIZE}} or {{step KIND of A at SIZE}}';

/** Splits `text` into literal runs and figures; `fail` gets what is wrong with a figure. */
export function parseMissing(text: string, fail: (detail: string) => Error): MissingParts {
  const parts: MissingParts = [];
  let at = 0;
  for (const m of text.matchAll(FIGURE)) {
    if (m.index > at) parts.push(text.slice(at, m.index));
    parts.push(parseFigure(m[1].trim(), fail));
    at = m.index + m[0].length;
  }
  if (at < text.length) parts.push(text.slice(at));
  const rest = parts.filter((p): p is string => typeof p === 'string').join('');
  if (rest.includes('{{') || rest.includes('}}'))
    throw fail(`an unclosed or empty figure; a figure is written ${FORMS}`);
  return parts;
}

function parseFigure(body: string, fail: (detail: string) => Error): Figure {
  const words = body.split(/\s+/);
  /** `read(text)`, a size or a span, its SizeError told as this figure's. */
  const sized = <T>(read: (text: string) => T, text: string): T => {
    try {
      return read(text);
    } catch (e) {
      if (e instanceof SizeError) throw fail(`figure {{${body}}}: ${e.message}`);
      throw e;
    }
  };
  const size = (text: string): number => sized(parseSize, text);
  const choice = (where: string, what: string | undefined): SizeChoice => {
    if (where === 'at' && what) return { at: size(what) };
    if (where === 'over' && what?.split('..').length === 2) return { over: sized(parseSpan, what) };
    throw fail(
      `figure {{${body}}}: expected 'at SIZE' or 'over FROM..TO' after the labels; a figure is written ${FORMS}`,
    );
  };
  if (words[0] === 'ratio' && words.length === 4) {
    const labels = words[1].split('/');
    if (labels.length !== 2 || !labels[0] || !labels[1])
      throw fail(`figure {{${body}}}: a ratio names two labels, A/B`);
    return { kind: 'ratio', of: labels[0], to: labels[1], ...choice(words[2], words[3]) };
  }
  if (words[0] === 'mean' && words.length === 4 && words[2] === 'at')
    return { kind: 'mean', of: words[1], at: size(words[3]) };
  if (words[0] === 'step' && words.length === 6 && words[2] === 'of' && words[4] === 'at')
    return { kind: 'step', step: words[1], of: words[3], at: size(words[5]) };
  throw fail(`figure {{${body}}} is not one the report computes; a figure is written ${FORMS}`);
}

/** The text with every figure computed from the claim's table, whose rows `rows` picks (checking
 *  that the table has them) and whose cells `cell` reads (checking the label); `fail` tells what
 *  else a figure asks that the table lacks. */
export function renderMissing(
  parts: MissingParts,
  rows: (choice: SizeChoice) => RunRow[],
  cell: (row: RunRow, label: string) => RunCell,
  fail: (detail: string) => Error,
): string {
  const time = (row: RunRow, label: string): number => cell(row, label).meanNs;
  return parts
    .map((p) => {
      if (typeof p === 'string') return p;
      if (p.kind === 'mean') return microseconds(time(rows({ at: p.at })[0], p.of));
      if (p.kind === 'step') {
        const c = cell(rows({ at: p.at })[0], p.of);
        const share = c.breakdown[p.step];
        if (share === undefined) {
          const kinds = Object.keys(c.breakdown).sort().join(', ');
          throw fail(
            `figure {{step ${p.step} of ${p.of} ...}}: ${p.of} spends no time in '${p.step}' steps; its kinds: ${kinds}`,
          );
        }
        return microseconds(share * c.rankTimeNs);
      }
      const ratios = rows(p).map((r) => time(r, p.of) / time(r, p.to));
      const lo = ratio(Math.min(...ratios));
      const hi = ratio(Math.max(...ratios));
      return lo === hi ? lo : `${lo}-${hi}`;
    })
    .join('');
}

function ratio(v: number): string {
  return v.toFixed(2);
}

/** Whole microseconds from 100 us, three significant figures below (no trailing zeros), and
 *  milliseconds to three significant figures from 1 ms, as the claims' texts quote times. */
function microseconds(ns: number): string {
  const us = ns / 1000;
  if (us >= 1000) return `${String(Number((us / 1000).toPrecision(3)))} ms`;
  return `${us >= 100 ? us.toFixed(0) : String(Number(us.toPrecision(3)))} us`;
}
