// A set of core OS indices as a machine file writes it: a list [0, 1, 2], a single index, a range
// string "0-3,8,10-11", or "all".

import type { YamlValue } from '../../common/yaml/value.ts';

/** Bound on what a machine file may describe, so a typo such as cores: 4000000 fails instead of exhausting memory. */
export const MAX_CORES = 65536;

export function readCoreSet(node: YamlValue, allCores: readonly number[]): number[] {
  if (node.kind() === 'seq') return node.items().map((item) => item.integer(0));
  const value = node.required('a core list such as [0, 1], "0-3,8" or all');
  if (typeof value === 'number') return [node.integer(0)];
  if (value === 'all') return [...allCores];
  if (typeof value !== 'string') node.fail(`expected a core list such as [0, 1], "0-3,8" or all, got ${node.describe()}`);
  const cores: number[] = [];
  for (const part of value.split(',')) {
    const m = /^\s*(\d+)\s*(?:-\s*(\d+))?\s*$/.exec(part);
    if (!m) node.fail(`cannot read '${part.trim()}' in core list '${value}' (write e.g. "0-3,8")`);
    const first = Number(m[1]);
    const last = m[2] === undefined ? first : Number(m[2]);
    if (last < first) node.fail(`core range '${part.trim()}' runs backwards`);
    if (last - first >= MAX_CORES) node.fail(`core range '${part.trim()}' is larger than any machine (${MAX_CORES} cores)`);
    for (let c = first; c <= last; c++) cores.push(c);
  }
  return cores;
}
