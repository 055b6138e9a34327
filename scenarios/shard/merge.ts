// Puts shards back together: checks that they are the N shards of one sweep, each once, and gives
// the outcome of every point in the sweep's order.
import { InputError } from '../../common/input-error.ts';
import type { PointOutcome } from '../run.ts';
import { UnavailableError } from '../point.ts';
import type { ShardFile } from './shard-file.ts';

export interface NamedShard {
  path: string;
  file: ShardFile;
}

/** The outcome of each point of the sweep the shards split, in point order. */
export function mergeShards(shards: NamedShard[]): PointOutcome[] {
  const [first] = shards;
  const byIndex = new Map<number, string>();
  for (const { path, file } of shards) {
    if (file.identity !== first.file.identity || file.points !== first.file.points)
      throw new InputError(`is a shard of another sweep than ${first.path} (${howTheyDiffer(first.file, file)})`, {
        file: path,
      });
    if (file.shard.count !== first.file.shard.count)
      throw new InputError(`is one of ${file.shard.count} shards, ${first.path} one of ${first.file.shard.count}`, {
        file: path,
        field: 'shard.count',
      });
    const twin = byIndex.get(file.shard.index);
    if (twin !== undefined)
      throw new InputError(`is shard ${file.shard.index}/${file.shard.count} again (${twin} is too)`, {
        file: path,
        field: 'shard.index',
      });
    byIndex.set(file.shard.index, path);
  }
  const { count } = first.file.shard;
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((i) => !byIndex.has(i));
  if (missing.length > 0)
    throw new InputError(
      `missing shard${missing.length > 1 ? 's' : ''} ${missing.map((i) => `${i}/${count}`).join(', ')} of the sweep of ${first.path}`,
    );
  const outcomes: PointOutcome[] = [];
  for (const { file } of shards) {
    for (const r of file.results) {
      // The unavailable cell's message is all a report prints of it.
      outcomes[r.point] =
        'result' in r ? { ok: true, result: r.result } : { ok: false, error: new UnavailableError(r.unavailable) };
    }
  }
  return outcomes;
}

/** The run options two shards of different sweeps were run with that differ, or what else can. */
function howTheyDiffer(a: ShardFile, b: ShardFile): string {
  const flags: [keyof ShardFile['run'], string][] = [
    ['machine', '--machine'],
    ['seed', '--seed'],
    ['hwlocMachine', '--hwloc-machine'],
    ['exact', '--exact'],
  ];
  const differ = flags.filter(([key]) => (a.run[key] ?? false) !== (b.run[key] ?? false)).map(([, flag]) => flag);
  if (differ.length > 0) return `run with different ${differ.join(', ')}`;
  return 'a different scenario or machine file, or another version of intranode';
}
