// What every tuned algorithm shares: reading its parameters, cutting a range into segments, the
// point-to-point tags, and the scratch buffers Open MPI's coll_base allocates per call (kept per
// rank here, as malloc would hand back the same warm memory call after call).
import type { Buffer, Program, Range, Rank } from '../../../sim/node/rank-api.ts';
import { range } from '../../../sim/node/buffer.ts';
import type { ParamInfo, ParamValue } from '../../registry.ts';

/** Tags of coll_base (ompi/mca/coll/base/coll_tags.h): one per operation, so phases never cross-match. */
export const TAG = {
  bcast: 11,
  gather: 12,
  scatter: 13,
  reduce: 14,
  allreduce: 15,
  allgather: 16,
  alltoall: 17,
  barrier: 18,
} as const;

/** The value of an integer/bytes parameter: given, else the ParamInfo default; checked against `min`. */
export function intParam(params: Record<string, ParamValue>, info: ParamInfo, algorithm: string): number {
  const raw = params[info.name] ?? info.default;
  if (typeof raw !== 'number' || !Number.isInteger(raw) || raw < (info.min ?? -Infinity)) {
    const floor = info.min === undefined ? '' : ` >= ${info.min}`;
    throw new Error(`${algorithm}: params.${info.name} must be an integer${floor}, got ${JSON.stringify(raw)}`);
  }
  return raw;
}

/** A sub-range of `r`: `bytes` bytes from `offset`. */
export function sub(r: Range, offset: number, bytes: number): Range {
  return range(r.buf, r.offset + offset, bytes);
}

/** Block `i` of `r` when `r` holds equal blocks of `block` bytes; `count` blocks from there. */
export function blocks(r: Range, block: number, i: number, count = 1): Range {
  return sub(r, i * block, count * block);
}

/**
 * [offset, bytes] of each segment of a `total`-byte message cut into `segsize`-byte segments (the
 * last one shorter); segsize 0 means one segment, as in COLL_BASE_COMPUTED_SEGCOUNT. A 0-byte
 * message is still one (empty) segment, so every rank takes part in the same exchanges.
 */
export function segments(total: number, segsize: number): Array<[offset: number, bytes: number]> {
  if (segsize <= 0 || total <= segsize) return [[0, total]];
  const out: Array<[number, number]> = [];
  for (let at = 0; at < total; at += segsize) out.push([at, Math.min(segsize, total - at)]);
  return out;
}

const scratchBuffers = new WeakMap<Rank, Map<string, Buffer>>();

/** A temporary buffer of this rank, reused across calls (same name and size: same buffer). */
export function scratch(rank: Rank, name: string, bytes: number): Range {
  let mine = scratchBuffers.get(rank);
  if (!mine) {
    mine = new Map();
    scratchBuffers.set(rank, mine);
  }
  const key = `${name}#${bytes}`;
  let buf = mine.get(key);
  if (!buf) {
    buf = rank.alloc(`tuned.${name}`, bytes);
    mine.set(key, buf);
  }
  return range(buf, 0, bytes);
}

/** The empty range zero-byte synchronisation messages carry. */
export function empty(rank: Rank): Range {
  return scratch(rank, 'zero', 0);
}

/** Waits for every request (the completion programs isend/irecv return), in order. */
export function* waitAll(requests: Array<() => Program<void>>): Program<void> {
  for (const done of requests) yield* done();
}

/** Largest power of two not above n (n >= 1). */
export function floorPow2(n: number): number {
  let p = 1;
  while (p * 2 <= n) p *= 2;
  return p;
}

export function isPow2(n: number): boolean {
  return n > 0 && (n & (n - 1)) === 0;
}
