// The XPMEM registration cache of one process (Hashmi et al., seed 001): attachments to peers'
// memory are kept after use, one AVL tree of address ranges per peer; a later access inside a
// cached range skips xpmem_get and xpmem_attach. Deregistration is lazy: an entry goes only when
// the cache is full, oldest first (FIFO, which the authors found better than LRU).
// This class is the bookkeeping only; xpmem.ts charges the simulated time of each step.
import { IntervalAvl } from './avl.ts';

/** One cached attachment: addresses [start, end) of `peer`'s address space, page-aligned. */
export interface CachedAttachment {
  readonly peer: number;
  readonly segid: number;
  readonly start: number;
  readonly end: number;
}

export interface RegistrationCacheStats {
  hits: number;
  misses: number;
  evictions: number;
  entries: number;
}

export class RegistrationCache {
  readonly capacity: number;
  private readonly trees = new Map<number, IntervalAvl<CachedAttachment>>();
  /** Every entry, oldest first (a Set iterates in insertion order). */
  private readonly fifo = new Set<CachedAttachment>();
  private hitCount = 0;
  private missCount = 0;
  private evictionCount = 0;

  constructor(capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError(`registration cache capacity must be a whole number >= 1, got ${capacity}`);
    this.capacity = capacity;
  }

  get size(): number {
    return this.fifo.size;
  }

  stats(): RegistrationCacheStats {
    return { hits: this.hitCount, misses: this.missCount, evictions: this.evictionCount, entries: this.fifo.size };
  }

  /** Tree levels a lookup in `peer`'s tree walks: ceil(log2(n + 1)) for n entries. */
  lookupLevels(peer: number): number {
    const n = this.trees.get(peer)?.size ?? 0;
    return Math.ceil(Math.log2(n + 1));
  }

  /** The cached attachment holding all of [start, end) of `peer`, counted as a hit or a miss. */
  lookup(peer: number, start: number, end: number): CachedAttachment | undefined {
    const found = this.trees.get(peer)?.containing(start, end)?.value;
    if (found) this.hitCount++;
    else this.missCount++;
    return found;
  }

  /** Cached attachments of `peer` sharing an address with [start, end). */
  overlapping(peer: number, start: number, end: number): CachedAttachment[] {
    return (this.trees.get(peer)?.overlapping(start, end) ?? []).map((i) => i.value);
  }

  /** The entry FIFO eviction takes before the next insertion, if the cache is full. */
  victim(): CachedAttachment | undefined {
    if (this.fifo.size < this.capacity) return undefined;
    return this.fifo.values().next().value;
  }

  /** Removes an entry (evicted, or replaced by a wider attachment). */
  remove(entry: CachedAttachment, evicted: boolean): void {
    if (!this.fifo.delete(entry))
      throw new Error(`registration cache: no entry [${entry.start}, ${entry.end}) of rank ${entry.peer}`);
    this.trees.get(entry.peer)!.delete(entry.start);
    if (evicted) this.evictionCount++;
  }

  insert(entry: CachedAttachment): void {
    if (this.fifo.size >= this.capacity)
      throw new Error('registration cache: insert into a full cache; evict the victim first');
    let tree = this.trees.get(entry.peer);
    if (!tree) {
      tree = new IntervalAvl<CachedAttachment>();
      this.trees.set(entry.peer, tree);
    }
    tree.insert(entry.start, entry.end, entry);
    this.fifo.add(entry);
  }

  /** Entries oldest first. */
  entries(): CachedAttachment[] {
    return [...this.fifo];
  }
}
