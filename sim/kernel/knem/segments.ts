// Vectorial buffers: pages a segment list spans, and the pairing of two segment lists byte for
// byte, so a copy between non-contiguous buffers runs as one contiguous copy per pair of pieces.
import type { Range } from '../../node/buffer.ts';
import { pagesSpanned } from '../address-space.ts';

/** Pages the segments touch; each buffer is page-aligned, so a segment's offset is its page offset. */
export function pagesOfAll(segments: readonly Range[], pageBytes: number): number {
  return segments.reduce((sum, s) => sum + pagesSpanned(s.offset, s.bytes, pageBytes), 0);
}

export function totalBytes(segments: readonly Range[]): number {
  return segments.reduce((sum, s) => sum + s.bytes, 0);
}

/** The part of the concatenation of `segments` from byte `offset`, `bytes` long, as ranges. */
export function sliceSegments(segments: readonly Range[], offset: number, bytes: number): Range[] {
  const out: Range[] = [];
  let skip = offset;
  let left = bytes;
  for (const s of segments) {
    if (left === 0) break;
    if (skip >= s.bytes) {
      skip -= s.bytes;
      continue;
    }
    const take = Math.min(s.bytes - skip, left);
    out.push({ buf: s.buf, offset: s.offset + skip, bytes: take });
    left -= take;
    skip = 0;
  }
  if (left > 0)
    throw new RangeError(
      `sliceSegments: ${bytes} bytes from ${offset} run past the segments' ${totalBytes(segments)} bytes`,
    );
  return out;
}

export interface Piece {
  src: Range;
  dst: Range;
}

/** Pairs two segment lists of equal total length into pieces contiguous on both sides. */
export function pairSegments(src: readonly Range[], dst: readonly Range[]): Piece[] {
  const a = src.filter((s) => s.bytes > 0);
  const b = dst.filter((s) => s.bytes > 0);
  if (totalBytes(a) !== totalBytes(b)) {
    throw new RangeError(`pairSegments: source has ${totalBytes(a)} bytes, destination ${totalBytes(b)}`);
  }
  const out: Piece[] = [];
  let i = 0;
  let j = 0;
  let doneA = 0;
  let doneB = 0;
  while (i < a.length && j < b.length) {
    const n = Math.min(a[i].bytes - doneA, b[j].bytes - doneB);
    out.push({
      src: { buf: a[i].buf, offset: a[i].offset + doneA, bytes: n },
      dst: { buf: b[j].buf, offset: b[j].offset + doneB, bytes: n },
    });
    doneA += n;
    doneB += n;
    if (doneA === a[i].bytes) {
      i++;
      doneA = 0;
    }
    if (doneB === b[j].bytes) {
      j++;
      doneB = 0;
    }
  }
  return out;
}
