// Blocks of the collectives' buffers: the equal blocks of the fixed-size
// operations as counts and displacements, and a message cut into fragments.
import type { Range } from '../../sim/node/rank-api.ts';
import { subRange } from '../../sim/node/buffer.ts';

/** Counts and displacements of `n` packed blocks of `bytes` each (scatter, gather, allgather). */
export function equalBlocks(n: number, bytes: number): { counts: number[]; displs: number[] } {
  return {
    counts: Array.from({ length: n }, () => bytes),
    displs: Array.from({ length: n }, (_, r) => r * bytes),
  };
}

/** An equal-block call (scatter, gather, allgather) in the form of its v-variant. */
export function withEqualBlocks<A extends { bytes: number }>(
  args: A,
  n: number,
): A & { counts: number[]; displs: number[] } {
  return { ...args, ...equalBlocks(n, args.bytes) };
}

/** The non-empty blocks of a buffer laid out by counts and displacements, in rank order. */
export function nonEmptyBlocks(buffer: Range, counts: number[], displs: number[]): Range[] {
  return counts.flatMap((c, r) => (c > 0 ? [subRange(buffer, displs[r], c)] : []));
}

/** [offset, bytes] of each fragment of a `total`-byte message, the last one shorter; none for an empty one. */
export function fragments(total: number, size: number): Array<[offset: number, bytes: number]> {
  const out: Array<[number, number]> = [];
  for (let at = 0; at < total; at += size) out.push([at, Math.min(size, total - at)]);
  return out;
}
