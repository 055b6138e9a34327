// `guessed` lists the values of this file that are estimates rather than sourced numbers, by the
// same field paths the loader's messages use (`costs.copyBandwidth`, `numa[1].latency`,
// `packages[0].caches[1].size`); `machine show` prints them as written. A path that leads nowhere
// would silently mark nothing, so each one must reach a value written in the file.
import { didYouMean } from '../../common/input-error.ts';
import type { YamlValue } from '../../common/yaml/value.ts';

const SEGMENT = /^([A-Za-z_][A-Za-z0-9_]*)((?:\[\d+\])*)$/;

/** Reads the `guessed` list of the document `root`, each entry checked to name one of its values. */
export function readGuessed(items: readonly YamlValue[], root: YamlValue): string[] {
  return items.map((item) => {
    const path = item.text();
    const problem = resolvePath(root, path);
    if (problem) item.fail(`guessed path '${path}': ${problem}`);
    return path;
  });
}

/** Why `path` does not reach a value written under `root`, or undefined when it does. */
function resolvePath(root: YamlValue, path: string): string | undefined {
  let here = root;
  for (const segment of path.split('.')) {
    const m = SEGMENT.exec(segment);
    if (!m) return `'${segment}' is not a field name with optional indices (write e.g. numa[0].latency)`;
    const [, name, indices] = m;
    const where = here.path ? ` under ${here.path}` : '';
    if (here.kind() !== 'map') return `${here.path || 'the document'} is ${here.describe()}, which has no '${name}'`;
    const entries = here.entries();
    const next = entries.get(name);
    if (!next?.filled) {
      const keys = [...entries.keys()];
      const hint = didYouMean(name, keys);
      return `the file has no '${name}'${where}${hint ? ` (did you mean '${hint}'?)` : `; keys there: ${keys.join(', ')}`}`;
    }
    here = next;
    for (const [, digits] of indices.matchAll(/\[(\d+)\]/g)) {
      const i = Number(digits);
      const list = here.kind() === 'seq' ? here.items() : undefined;
      if (!list || i >= list.length || !list[i].filled) {
        return list ? `${here.path} has ${list.length} entries, so no [${i}]` : `${here.path} is not a list`;
      }
      here = list[i];
    }
  }
  return undefined;
}
