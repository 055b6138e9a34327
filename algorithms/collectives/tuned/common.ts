// What every tuned algorithm shares: cutting a message into segments, the scratch buffers
// Open MPI's coll_base allocates per call (kept per rank, see kept-buffers.ts), waiting for
// requests, powers of two.
import type { Program, Range, Rank } from '../../../sim/node/rank-api.ts';
import { range } from '../../../sim/node/buffer.ts';
import { fragments } from '../blocks.ts';
import { keptBuffer } from '../kept-buffers.ts';

/**
 * [offset, bytes] of each segment of a `total`-byte message cut into `segsize`-byte segments (the
 * last one shorter); segsize 0 means one segment, as in COLL_BASE_COMPUTED_SEGCOUNT. A 0-byte
 * message is still one (empty) segment, so every rank takes part in the same exchanges.
 */
export function segments(total: number, segsize: number): Array<[offset: number, bytes: number]> {
  if (segsize <= 0 || total <= segsize) return [[0, total]];
  return fragments(total, segsize);
}

/** A temporary buffer of this rank, reused across calls (same name and size: same buffer). */
export function scratch(rank: Rank, name: string, bytes: number): Range {
  return range(keptBuffer(rank, `tuned.${name}`, bytes), 0, bytes);
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
