// Which caches hold some bytes of each buffer. A write must make every other cache's copy of its
// range stale; walking every cache of the machine for that costs more than the copy's own model on
// a big node, where a buffer sits in a handful of caches out of hundreds. Caches report here when
// they start and stop holding a buffer, so a write visits only those.
//
// A buffer's set stays when its last holder leaves: small caches drop and take up the same buffers
// over and over (a stream of segments through an L1), and a map whose keys come and go rehashes.
// What the index stands for in a fingerprint is the buffers held now, in the order they came to be
// held, as a map dropping each buffer with its last holder would list them.

import { STATE_TOKENS, type EmitsStateTokens, type StateToken } from '../../common/state-fingerprint.ts';
import type { CacheState } from './cache.ts';

interface Holding {
  readonly caches: Set<CacheState>;
  /** When the set last went from empty to held (a count of such changes). */
  since: number;
}

export class CacheHolders implements EmitsStateTokens {
  private readonly byBuffer = new Map<number, Holding>();
  private changes = 0;

  /** The caches holding some bytes of `buf` now; undefined when none does. */
  of(buf: number): ReadonlySet<CacheState> | undefined {
    const holding = this.byBuffer.get(buf);
    return holding !== undefined && holding.caches.size > 0 ? holding.caches : undefined;
  }

  /** `cache` now holds some bytes of `buf` (it held none). */
  add(buf: number, cache: CacheState): void {
    let holding = this.byBuffer.get(buf);
    if (holding === undefined) {
      holding = { caches: new Set(), since: 0 };
      this.byBuffer.set(buf, holding);
    }
    if (holding.caches.size === 0) holding.since = this.changes++;
    holding.caches.add(cache);
  }

  /** `cache` holds no byte of `buf` any more. */
  delete(buf: number, cache: CacheState): void {
    this.byBuffer.get(buf)?.caches.delete(cache);
  }

  [STATE_TOKENS](push: (token: StateToken) => void): void {
    const held = [...this.byBuffer].filter(([, h]) => h.caches.size > 0).sort(([, a], [, b]) => a.since - b.since);
    push(held.length);
    for (const [buf, { caches }] of held) {
      push(buf);
      push(caches.size);
      // In the set's order, which the lookups that take the first of equals follow.
      for (const cache of caches) push(cache.name);
    }
  }
}
