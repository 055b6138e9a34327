// Which pages of each freshly allocated buffer the kernel has not yet given a physical page:
// anonymous memory from malloc/mmap is only reserved until its first access, which takes a page
// fault (allocate a page, zero it, map it). Only buffers allocated while tracking is on are here;
// every other buffer counts as present (the MPI library's shared segments are mapped and written
// at initialisation, and reused benchmark buffers are written before the first timed call).
import type { Buffer, Range } from './buffer.ts';

/** Pages [start, end) of one buffer, by index from the buffer's first page. */
type PageSpan = [number, number];

export class PageTable {
  /** Per buffer id, the spans of pages not yet faulted in, sorted and disjoint. */
  private readonly missing = new Map<number, PageSpan[]>();
  private readonly buffers = new Map<number, Buffer>();
  private tracking = false;

  constructor(readonly pageBytes: number) {
    if (!Number.isInteger(pageBytes) || pageBytes < 1)
      throw new RangeError(`page size must be a whole number of bytes >= 1, got ${pageBytes}`);
  }

  /** From now on, every buffer a rank allocates starts with no page present. */
  trackNewBuffers(): void {
    this.tracking = true;
  }

  /** Whether any tracked buffer still has a page to fault in (nothing to check otherwise). */
  get pending(): boolean {
    return this.missing.size > 0;
  }

  /** Called for every allocation; records a rank's buffer as wholly absent while tracking. */
  allocated(buf: Buffer): void {
    if (!this.tracking || buf.owner < 0 || buf.size === 0) return;
    this.missing.set(buf.id, [[0, Math.ceil(buf.size / this.pageBytes)]]);
    this.buffers.set(buf.id, buf);
  }

  /** The owner wrote the whole buffer itself (outside what is timed): every page is present. */
  present(buf: Buffer): void {
    this.forget(buf.id);
  }

  /** Tracked buffers with some page still absent, in allocation order. */
  absentBuffers(): Buffer[] {
    return [...this.missing.keys()].map((id) => this.buffers.get(id)!);
  }

  /** Pages of `buf` not yet faulted in. */
  absentPages(buf: Buffer): number {
    return (this.missing.get(buf.id) ?? []).reduce((n, [a, b]) => n + b - a, 0);
  }

  private forget(id: number): void {
    this.missing.delete(id);
    this.buffers.delete(id);
  }

  /**
   * Faults in the pages of `r` that are absent: returns how many there were and the first of them
   * (buffers start on a page boundary, as mmap'd allocations do), and marks them present.
   */
  faultIn(r: Range): { pages: number; firstPage: number } {
    const spans = this.missing.get(r.buf.id);
    if (!spans || r.bytes === 0) return { pages: 0, firstPage: 0 };
    const from = Math.floor(r.offset / this.pageBytes);
    const to = Math.floor((r.offset + r.bytes - 1) / this.pageBytes) + 1;
    let pages = 0;
    let firstPage = -1;
    const left: PageSpan[] = [];
    for (const [a, b] of spans) {
      const lo = Math.max(a, from);
      const hi = Math.min(b, to);
      if (lo >= hi) {
        left.push([a, b]);
        continue;
      }
      if (firstPage < 0) firstPage = lo;
      pages += hi - lo;
      if (a < lo) left.push([a, lo]);
      if (hi < b) left.push([hi, b]);
    }
    if (left.length === 0) this.forget(r.buf.id);
    else this.missing.set(r.buf.id, left);
    return { pages, firstPage: Math.max(firstPage, 0) };
  }
}
