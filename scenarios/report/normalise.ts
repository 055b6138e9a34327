// Time of each cell relative to the baseline algorithm at the same size.
import type { ResultCell } from '../run.ts';

/** mean / baseline mean, or undefined when the baseline took no time (nothing to compare with). */
export function normalised(cell: ResultCell, row: ResultCell[], baseline: string): number | undefined {
  const base = row.find((c) => c.algorithm.label === baseline)?.result.meanNs;
  if (base === undefined || !(base > 0) || !Number.isFinite(cell.result.meanNs)) return undefined;
  return cell.result.meanNs / base;
}

/** Every kind of step that appears in any cell, sorted, so columns are the same for every row. */
export function breakdownKinds(cells: Iterable<ResultCell>): string[] {
  const kinds = new Set<string>();
  for (const c of cells) for (const k of Object.keys(c.result.breakdown)) kinds.add(k);
  return [...kinds].sort();
}
