// The partial results of one shard, as `intranode run --shard I/N` prints them and `intranode merge`
// reads them: JSON holding what merge needs to rebuild the report (how to load the scenario again)
// and to check that the shards belong together (the sweep's identity, N, I, the point count).
import { InputError } from '../../common/input-error.ts';
import type { ShardRunOptions } from './identity.ts';
import type { ShardResult } from './run-shard.ts';
import { shardIndices, type ShardSpec } from './select.ts';

export const SHARD_FORMAT = 'intranode-shard';
// 2: a point's result carries its rank-time per reported time (`rankTimeNs`).
// 3: and the memory the library allocated (`libraryBytes`).
export const SHARD_VERSION = 3;

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
  const unknown = Object.keys(data).find((k) => !SHARD_KEYS.includes(k));
  if (unknown !== undefined) throw fail(`unknown key '${unknown}' in a shard file`, unknown);
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
    if (!isRecord(r) || r.point !== expected[k])
      throw fail(`expected the result of point ${expected[k]}`, `results[${k}]`);
    if (typeof r.unavailable === 'string') return;
    const problem = resultProblem(r.result);
    if (problem) throw fail(problem.detail, `results[${k}].result${problem.field}`);
  });
  return data as unknown as ShardFile;
}

const SHARD_KEYS: readonly string[] = ['format', 'version', 'identity', 'shard', 'points', 'run', 'results'];
const TIMES = ['minNs', 'meanNs', 'maxNs', 'rankTimeNs'] as const;

/** What is wrong with a ran point's result, if anything. JSON has no NaN: its times are finite
 *  durations, never negative; its breakdown gives each kind of step its share of the rank-time, from
 *  0 to 1, the shares adding up to at most 1. */
function resultProblem(x: unknown): { field: string; detail: string } | undefined {
  if (!isRecord(x)) return { field: '', detail: 'expected a point result: times and a breakdown' };
  for (const t of TIMES) {
    const v = x[t];
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0)
      return { field: `.${t}`, detail: `expected a duration in ns of at least 0, got ${JSON.stringify(v)}` };
  }
  const lib = x.libraryBytes;
  if (typeof lib !== 'number' || !Number.isInteger(lib) || lib < 0)
    return {
      field: '.libraryBytes',
      detail: `expected a whole number of bytes of at least 0, got ${lib === undefined ? 'nothing' : JSON.stringify(lib)}`,
    };
  if (!isRecord(x.breakdown)) return { field: '.breakdown', detail: 'expected the shares of each kind of step' };
  let sum = 0;
  for (const [kind, v] of Object.entries(x.breakdown)) {
    if (typeof v !== 'number' || !(v >= 0 && v <= 1))
      return { field: `.breakdown.${kind}`, detail: `expected a share from 0 to 1, got ${JSON.stringify(v)}` };
    sum += v;
  }
  // Shares are quotients of one sum, so they add up to 1 within the rounding of a few divisions.
  if (sum > 1 + 1e-9)
    return { field: '.breakdown', detail: `the shares add up to ${sum}, more than the whole rank-time` };
  return undefined;
}

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function isCount(x: unknown): x is number {
  return typeof x === 'number' && Number.isInteger(x) && x >= 1;
}
