// Which caches hold some bytes of each buffer. A write must make every other cache's copy of its
// range stale; walking every cache of the machine for that costs more than the copy's own model on
// a big node, where a buffer sits in a handful of caches out of hundreds. Caches report here when
// they start and stop holding a buffer, so a write visits only those.

import type { CacheState } from './cache.ts';

export class CacheHolders {
  private readonly byBuffer = new Map<number, Set<CacheState>>();

  /** The caches holding some bytes of `buf` now; undefined when none does. */
  of(buf: number): ReadonlySet<CacheState> | undefined {
    return this.byBuffer.get(buf);
  }

  /** `cache` now holds some bytes of `buf` (it held none). */
  add(buf: number, cache: CacheState): void {
    let set = this.byBuffer.get(buf);
    if (set === undefined) {
      set = new Set();
      this.byBuffer.set(buf, set);
    }
    set.add(cache);
  }

  /** `cache` holds no byte of `buf` any more. */
  delete(buf: number, cache: CacheState): void {
    const set = this.byBuffer.get(buf);
    if (set === undefined) return;
    set.delete(cache);
    if (set.size === 0) this.byBuffer.delete(buf);
  }
}
