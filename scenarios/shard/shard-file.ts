// The partial results of one shard, as `intranode run --shard I/N` prints them and `intranode merge`
// reads them: JSON holding what merge needs to rebuild the report (how to load the scenario again)
// and to check that the shards belong together (the sweep's identity, N, I, the point count).
import { InputError } from '../../common/input-error.ts';
import type { ShardRunOptions } from './identity.ts';
import type { ShardResult } from './run-shard.ts';
import { shardIndices, type ShardSpec } from './select.ts';

export const SHARD_FORMAT = 'intranode-shard';
// 2: a point's result carries its rank-time per reported time (`rankTimeNs`).
export const SHARD_VERSION = 2;

export interface ShardFile {
  format: typeof SHARD_FORMAT;
  version: typeof SHARD_VERSION;
  identity: string;
  shard: ShardSpec;
  /** Points in the whole sweep. */
  points: number;
  run: ShardRunOptions;
  results: ShardResult[];
}

export function formatShardFile(file: ShardFile): string {
  return `${JSON.stringify(file, null, 1)}\n`;
}

/** Parses and checks `text`, read from `path`; anything that is not a whole shard is an InputError naming it. */
export function parseShardFile(text: string, path: string): ShardFile {
  const fail = (detail: string, field?: string) => new InputError(detail, { file: path, ...(field ? { field } : {}) });
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw fail(`not a shard file (not JSON); shard files are written by 'intranode run FILE --shard I/N'`);
  }
  if (!isRecord(data) || data.format !== SHARD_FORMAT)
    throw fail(`not a shard file; shard files are written by 'intranode run FILE --shard I/N'`, 'format');
  if (data.version !== SHARD_VERSION)
    throw fail(
      `shard file version ${String(data.version)} is not supported (this intranode reads version ${SHARD_VERSION})`,
      'version',
    );
  if (typeof data.identity !== 'string') throw fail('missing the sweep identity', 'identity');
  const shard = data.shard;
  if (!isRecord(shard) || !isCount(shard.count) || !isCount(shard.index) || shard.index > shard.count)
    throw fail('needs shard.index and shard.count with 1 ≤ index ≤ count', 'shard');
  if (!isCount(data.points) && data.points !== 0) throw fail('needs the number of points of the sweep', 'points');
  const run = data.run;
  if (!isRecord(run) || typeof run.cwd !== 'string' || typeof run.file !== 'string')
    throw fail('needs run.cwd and run.file (how the scenario was loaded)', 'run');
  const results = data.results;
  const expected = shardIndices(data.points, { index: shard.index, count: shard.count });
  if (!Array.isArray(results) || results.length !== expected.length)
    throw fail(
      `shard ${shard.index}/${shard.count} of ${data.points} points needs ${expected.length} results`,
      'results',
    );
  results.forEach((r: unknown, k) => {
    const ok = isRecord(r) && r.point === expected[k] && (typeof r.unavailable === 'string' || isPointResult(r.result));
    if (!ok) throw fail(`expected the result of point ${expected[k]}`, `results[${k}]`);
  });
  return data as unknown as ShardFile;
}

/** JSON has no NaN: a ran point's times are finite durations, never negative, and its breakdown
 *  shares numbers. */
function isPointResult(x: unknown): boolean {
  const times = isRecord(x) ? [x.minNs, x.meanNs, x.maxNs, x.rankTimeNs] : [];
  return (
    isRecord(x) &&
    times.every((t) => typeof t === 'number' && Number.isFinite(t) && t >= 0) &&
    isRecord(x.breakdown) &&
    Object.values(x.breakdown).every((v) => typeof v === 'number')
  );
}

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function isCount(x: unknown): x is number {
  return typeof x === 'number' && Number.isInteger(x) && x >= 1;
}
