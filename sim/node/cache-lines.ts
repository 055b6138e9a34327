// Caches hold whole lines. An access to some bytes of a line brings the whole line into the caches
// it passes, and a store makes the whole line dirty there (and stale everywhere else): a later
// access to another part of the same line finds it cached. Residency in this model is kept as byte
// ranges, so an access is widened to the lines it touches before it updates the caches. Buffers
// start on a line boundary (the model's allocations are page-aligned, as mmap'd and large malloc'd
// buffers are), and a line never reaches past its buffer's end.
import type { Range } from './buffer.ts';

/** The lines `r` touches, as a range of its buffer, and how many bytes were added before and after. */
export function lineExtent(r: Range, lineBytes: number): { lines: Range; before: number; after: number } {
  const start = Math.floor(r.offset / lineBytes) * lineBytes;
  const end = Math.min(r.buf.size, Math.ceil((r.offset + r.bytes) / lineBytes) * lineBytes);
  const before = r.offset - start;
  const after = end - (r.offset + r.bytes);
  if (before === 0 && after === 0) return { lines: r, before, after };
  return { lines: { buf: r.buf, offset: start, bytes: end - start }, before, after };
}
