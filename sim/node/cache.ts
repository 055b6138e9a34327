// Cache residency at the level of buffer ranges, not lines: which bytes of which buffer a cache
// holds, least recently used out first. A touch streams through its range in address order, so
// within one range the lower addresses are the older ones: eviction trims a range from its front,
// and a range bigger than the cache leaves its tail behind. This is exactly a per-byte LRU whose
// timestamps rise with address inside each touch, kept as a few hundred ranges instead of bytes.
//
// A range written by a core is dirty: when it is evicted, its bytes must be written back to memory.
// The cache counts what it evicts dirty, per buffer, until its owner takes the count to charge
// that write-back to the access that caused the eviction.
//
// A buffer retired (a benchmark moving on to other buffers, as IMB's -off_cache does) is no longer
// found here, but its dirty lines do not vanish: they keep their place in the LRU order as stale
// entries, found by no lookup, and cost their write-back when something pushes them out.

import { STATE_TOKENS, type StateToken } from '../../common/state-fingerprint.ts';
import type { CacheHolders } from './cache-holders.ts';

export interface ResidentRange {
  buf: number;
  start: number;
  length: number;
}

/** Told of every piece a touch pushes out (a victim cache behind this one receives them); a
 *  `stale` piece is a retired buffer's dirty lines, which the receiver keeps stale too. */
export type EvictionSink = (buf: number, start: number, length: number, dirty: boolean, stale: boolean) => void;

/** A cache's whole state, to put back later (saved before a look ahead that may be undone). */
export interface SavedCache {
  readonly ranges: readonly { buf: number; start: number; length: number; dirty: boolean; stale: boolean }[];
  readonly used: number;
  readonly writebacks: readonly [number, number][] | undefined;
}

interface Entry {
  readonly buf: number;
  start: number;
  length: number;
  readonly dirty: boolean;
  /** A retired buffer's dirty lines: in the LRU order, in no buffer's list. */
  stale: boolean;
  prev: Entry | null; // older
  next: Entry | null; // newer
}

export class CacheState {
  readonly name: string;
  readonly capacityBytes: number;
  private used = 0;
  // LRU order as a doubly linked list: head is the oldest, tail the most recently used.
  private head: Entry | null = null;
  private tail: Entry | null = null;
  // Per buffer, its resident entries sorted by start and disjoint, for range lookups. A buffer whose
  // ranges were all evicted or cut keeps its empty list: a small cache drops and takes up the same
  // buffers over and over (a stream of segments through an L1), and a map whose keys come and go
  // rehashes. Freed, retired and cleared buffers leave the map.
  private byBuffer = new Map<number, Entry[]>();
  /** Told when this cache starts or stops holding a buffer, if the machine keeps such an index. */
  private readonly holders: CacheHolders | undefined;
  /** Dirty bytes evicted since the last takeWritebacks(), per buffer. */
  private writebacks: Map<number, number> | undefined;

  /**
   * `countWritebacks: false` for a private cache whose dirty lines matter only while it holds them
   * (a sibling's probe finds them there, sibling-caches.ts) and whose evictions nobody charges.
   */
  constructor(
    name: string,
    capacityBytes: number,
    holders?: CacheHolders,
    private readonly countWritebacks = true,
    /** Where a buffer's written lines go back to (its home NUMA node), for the fingerprint below. */
    private readonly homeOf?: (buf: number) => number | undefined,
  ) {
    if (!Number.isInteger(capacityBytes) || capacityBytes < 0) {
      throw new RangeError(`cache ${name}: capacity must be a non-negative integer, got ${capacityBytes}`);
    }
    this.name = name;
    this.capacityBytes = capacityBytes;
    this.holders = holders;
  }

  get usedBytes(): number {
    return this.used;
  }

  /** Bytes of retired buffers' dirty lines still here, waiting for their write-back. */
  get staleBytes(): number {
    let total = 0;
    for (let e = this.head; e !== null; e = e.next) if (e.stale) total += e.length;
    return total;
  }

  /** Bytes of [start, start+length) of buffer `buf` resident now. */
  residentBytes(buf: number, start: number, length: number): number {
    return this.countBytes(buf, start, length, false);
  }

  /** Bytes of [start, start+length) of buffer `buf` resident and dirty now. */
  dirtyBytes(buf: number, start: number, length: number): number {
    return this.countBytes(buf, start, length, true);
  }

  private countBytes(buf: number, start: number, length: number, onlyDirty: boolean): number {
    checkRange(this.name, start, length);
    const list = this.byBuffer.get(buf);
    if (list === undefined || length === 0) return 0;
    const end = start + length;
    let total = 0;
    for (let i = firstEndingAfter(list, start); i < list.length && list[i].start < end; i++) {
      const e = list[i];
      if (!onlyDirty || e.dirty) total += Math.min(e.start + e.length, end) - Math.max(e.start, start);
    }
    return total;
  }

  /**
   * Marks the range most recently used, inserting what is missing and evicting LRU ranges (or their
   * fronts) until the total fits. A range larger than the capacity leaves only its last
   * `capacityBytes` bytes resident. `dirty`: the range was written and must be written back when
   * evicted. `evicted` is told of what leaves, oldest first: the head of a range longer than the
   * cache, then the LRU pieces the range pushes out.
   */
  touch(buf: number, start: number, length: number, dirty = false, evicted?: EvictionSink): void {
    checkRange(this.name, start, length);
    if (length > this.capacityBytes) {
      // The head of the range would be evicted by its own tail before the touch ends.
      const head = length - this.capacityBytes;
      if (evicted) this.streamedThrough(buf, start, head, dirty, evicted);
      start += head;
      length = this.capacityBytes;
    }
    if (length === 0) return;
    // Reading written bytes does not clean them: they keep their dirtiness in their new LRU place.
    const segments = dirty ? undefined : this.dirtyParts(buf, start, length);
    this.cut(buf, start, length);
    if (segments === undefined) this.place(buf, start, length, dirty);
    else for (const [s, l, d] of segments) this.place(buf, s, l, d);
    this.used += length;
    this.evict(evicted);
  }

  /** Reports the head of a range that streams through without staying, with the dirtiness its
   *  bytes leave with (written now, or dirty here before). */
  private streamedThrough(buf: number, start: number, length: number, dirty: boolean, evicted: EvictionSink): void {
    const parts = dirty ? undefined : this.dirtyParts(buf, start, length);
    if (parts === undefined) evicted(buf, start, length, dirty, false);
    else for (const [s, l, d] of parts) evicted(buf, s, l, d, false);
  }

  /** Appends a range as the most recently used, merging it with the newest range it continues. */
  private place(buf: number, start: number, length: number, dirty: boolean): void {
    const last = this.tail;
    if (
      last !== null &&
      !last.stale &&
      last.buf === buf &&
      last.dirty === dirty &&
      last.start + last.length === start
    ) {
      // Still ascending in address and time: one streamed range.
      last.length += length;
    } else {
      const e: Entry = { buf, start, length, dirty, stale: false, prev: null, next: null };
      this.append(e);
      this.insertSorted(e);
    }
  }

  /** [start, length, dirty] pieces covering the range in address order, or undefined when none of it is dirty. */
  private dirtyParts(buf: number, start: number, length: number): Array<[number, number, boolean]> | undefined {
    const list = this.byBuffer.get(buf);
    if (list === undefined) return undefined;
    const end = start + length;
    let parts: Array<[number, number, boolean]> | undefined;
    let at = start;
    for (let i = firstEndingAfter(list, start); i < list.length && list[i].start < end; i++) {
      const e = list[i];
      if (!e.dirty) continue;
      const from = Math.max(e.start, start);
      const to = Math.min(e.start + e.length, end);
      parts ??= [];
      if (from > at) parts.push([at, from - at, false]);
      parts.push([from, to - from, true]);
      at = to;
    }
    if (parts !== undefined && at < end) parts.push([at, end - at, false]);
    return parts;
  }

  /** A buffer freed: none of its bytes stay resident. */
  invalidate(buf: number): void {
    const list = this.byBuffer.get(buf);
    if (list === undefined) return;
    for (const e of list) {
      this.unlink(e);
      this.used -= e.length;
    }
    this.dropBuffer(buf);
  }

  /**
   * A buffer the program is done with for now (IMB's -off_cache rotating to the next one): none of
   * its bytes are found here any more, but its dirty lines stay where they are in the LRU order,
   * stale, and are written back when evicted, as the lines of a buffer no longer used are.
   */
  retire(buf: number): void {
    const list = this.byBuffer.get(buf);
    if (list === undefined) return;
    for (const e of list) {
      if (e.dirty) {
        e.stale = true;
        continue;
      }
      this.unlink(e);
      this.used -= e.length;
    }
    this.dropBuffer(buf);
  }

  /** [start, length] of each dirty range of `buf` held here, in address order. */
  dirtyRanges(buf: number): Array<[start: number, length: number]> {
    const out: Array<[number, number]> = [];
    for (const e of this.byBuffer.get(buf) ?? []) if (e.dirty) out.push([e.start, e.length]);
    return out;
  }

  /** A piece of a retired buffer's dirty lines pushed out of the cache in front: most recently used. */
  touchStale(buf: number, start: number, length: number, evicted?: EvictionSink): void {
    checkRange(this.name, start, length);
    if (length === 0) return;
    const last = this.tail;
    if (last !== null && last.stale && last.buf === buf && last.start + last.length === start) last.length += length;
    else this.append({ buf, start, length, dirty: true, stale: true, prev: null, next: null });
    this.used += length;
    this.evict(evicted);
  }

  /** Another core wrote these bytes: this cache's copy of them is stale (coherence invalidation). */
  invalidateRange(buf: number, start: number, length: number): void {
    checkRange(this.name, start, length);
    this.cut(buf, start, length);
  }

  /** Dirty bytes evicted since the last call, per buffer (undefined when none), and forgets them. */
  takeWritebacks(): Map<number, number> | undefined {
    const taken = this.writebacks;
    this.writebacks = undefined;
    return taken;
  }

  /**
   * The same, summed per home (`homeKey`: -1 for a buffer without one) in whole bytes, homes in
   * ascending order: what the write-back costs depends on how many bytes go back where, not on which
   * buffers they were written in, as this cache's fingerprint assumes.
   */
  takeWritebacksByHome(): Array<[home: number, bytes: number]> | undefined {
    const taken = this.takeWritebacks();
    return taken && perHome(taken, (buf) => this.homeKey(buf));
  }

  /** Everything out, as IMB's -off_cache does between iterations. */
  clear(): void {
    this.head = this.tail = null;
    for (const buf of [...this.byBuffer.keys()]) this.dropBuffer(buf);
    this.used = 0;
  }

  save(): SavedCache {
    const ranges: { buf: number; start: number; length: number; dirty: boolean; stale: boolean }[] = [];
    for (let e = this.head; e !== null; e = e.next)
      ranges.push({ buf: e.buf, start: e.start, length: e.length, dirty: e.dirty, stale: e.stale });
    return { ranges, used: this.used, writebacks: this.writebacks ? [...this.writebacks] : undefined };
  }

  /** Puts back what `save` returned, entry for entry (the holders index follows). */
  restore(saved: SavedCache): void {
    this.clear();
    for (const r of saved.ranges) {
      const e: Entry = { ...r, prev: null, next: null };
      this.append(e);
      if (!e.stale) this.insertSorted(e);
    }
    this.used = saved.used;
    this.writebacks = saved.writebacks ? new Map(saved.writebacks) : undefined;
  }

  /**
   * What stands for this cache in a fingerprint of the simulation (common/state-fingerprint.ts):
   * its ranges in LRU order, those of retired buffers known only by the home they go back to, with
   * neighbours of one home as one run. No lookup finds a retired buffer's lines, a victim cache
   * behind takes them as they leave, and their write-back is charged per home
   * (`takeWritebacksByHome`), so which buffer they came from changes nothing: a cache-off call that finds
   * the caches full of earlier calls' lines repeats the one before it once the runs match, whichever
   * calls wrote them. (Without `homeOf`, every range is kept as it is.)
   */
  [STATE_TOKENS](push: (token: StateToken) => void): void {
    push(this.capacityBytes);
    push(this.used);
    let runHome: number | undefined;
    let runBytes = 0;
    for (let e = this.head; e !== null; e = e.next) {
      if (e.stale && this.homeOf) {
        const home = this.homeKey(e.buf);
        if (runBytes > 0 && home === runHome) {
          runBytes += e.length;
          continue;
        }
        if (runBytes > 0) pushAll(push, 'stale', runHome, runBytes);
        runHome = home;
        runBytes = e.length;
        continue;
      }
      if (runBytes > 0) pushAll(push, 'stale', runHome, runBytes);
      runBytes = 0;
      pushAll(push, e.stale ? 'stale buffer' : e.dirty ? 'dirty' : 'clean', e.buf, e.start, e.length);
    }
    if (runBytes > 0) pushAll(push, 'stale', runHome, runBytes);
    // Live ranges' per-buffer lists are the same ranges sorted; the holders index follows them.
    // Write-backs waiting to be charged count per home too, as they are charged.
    push('write-backs');
    for (const [home, bytes] of this.writebacks ? perHome(this.writebacks, (buf) => this.homeKey(buf)) : [])
      pushAll(push, home, bytes);
  }

  /** Where a buffer's written lines go back to: its home, -1 for a buffer without one; the buffer
   *  itself for a cache told no homes. */
  private homeKey(buf: number): number {
    return this.homeOf ? (this.homeOf(buf) ?? -1) : buf;
  }

  /** Resident ranges in LRU order, oldest first (retired buffers' stale lines left out). */
  ranges(): ResidentRange[] {
    const out: ResidentRange[] = [];
    for (let e = this.head; e !== null; e = e.next)
      if (!e.stale) out.push({ buf: e.buf, start: e.start, length: e.length });
    return out;
  }

  /** Removes [start, start+length) of `buf` from residency; what is left of a cut range keeps its LRU place. */
  private cut(buf: number, start: number, length: number): void {
    const list = this.byBuffer.get(buf);
    if (list === undefined || list.length === 0) return;
    const end = start + length;
    let i = firstEndingAfter(list, start);
    while (i < list.length && list[i].start < end) {
      const e = list[i];
      const eEnd = e.start + e.length;
      const leftLen = Math.max(0, start - e.start);
      const rightLen = Math.max(0, eEnd - end);
      this.used -= e.length - leftLen - rightLen;
      if (leftLen > 0 && rightLen > 0) {
        // Split in two: both halves keep e's age, the left one older (lower addresses stream first).
        const right: Entry = { buf, start: end, length: rightLen, dirty: e.dirty, stale: false, prev: e, next: e.next };
        if (e.next !== null) e.next.prev = right;
        else this.tail = right;
        e.next = right;
        e.length = leftLen;
        list.splice(i + 1, 0, right);
        return;
      } else if (leftLen > 0) {
        e.length = leftLen;
        i++;
      } else if (rightLen > 0) {
        e.start = end;
        e.length = rightLen;
        return;
      } else {
        this.unlink(e);
        list.splice(i, 1);
      }
    }
    if (list.length === 0) this.emptied(buf);
  }

  private evict(evicted?: EvictionSink): void {
    while (this.used > this.capacityBytes && this.head !== null) {
      const e = this.head;
      const excess = this.used - this.capacityBytes;
      const out = Math.min(e.length, excess);
      evicted?.(e.buf, e.start, out, e.dirty, e.stale);
      if (e.dirty && this.countWritebacks) {
        this.writebacks ??= new Map();
        this.writebacks.set(e.buf, (this.writebacks.get(e.buf) ?? 0) + out);
      }
      if (e.length <= excess) {
        this.unlink(e);
        if (!e.stale) this.removeSorted(e);
        this.used -= e.length;
      } else {
        e.start += excess;
        e.length -= excess;
        this.used -= excess;
      }
    }
  }

  private append(e: Entry): void {
    e.prev = this.tail;
    e.next = null;
    if (this.tail !== null) this.tail.next = e;
    else this.head = e;
    this.tail = e;
  }

  private unlink(e: Entry): void {
    if (e.prev !== null) e.prev.next = e.next;
    else this.head = e.next;
    if (e.next !== null) e.next.prev = e.prev;
    else this.tail = e.prev;
    e.prev = e.next = null;
  }

  private insertSorted(e: Entry): void {
    let list = this.byBuffer.get(e.buf);
    if (list === undefined) {
      list = [];
      this.byBuffer.set(e.buf, list);
    }
    if (list.length === 0) this.holders?.add(e.buf, this);
    // Shifted by hand: splice returns an array, and this runs on most touches.
    const at = firstEndingAfter(list, e.start);
    list.push(e);
    for (let i = list.length - 1; i > at; i--) list[i] = list[i - 1];
    list[at] = e;
  }

  private removeSorted(e: Entry): void {
    const list = this.byBuffer.get(e.buf)!;
    const at = firstEndingAfter(list, e.start);
    if (list[at] !== e)
      throw new Error(`cache ${this.name}: a range of buffer ${e.buf} is not where its start puts it`);
    // The LRU head is usually a buffer's lowest range (streams ascend): V8 removes an array's first
    // element without moving the rest.
    if (at === 0) list.shift();
    else {
      for (let i = at; i < list.length - 1; i++) list[i] = list[i + 1];
      list.pop();
    }
    if (list.length === 0) this.emptied(e.buf);
  }

  /** The last range of `buf` left: no longer a holder of it, its list kept for its next range. */
  private emptied(buf: number): void {
    this.holders?.delete(buf, this);
  }

  private dropBuffer(buf: number): void {
    this.byBuffer.delete(buf);
    this.holders?.delete(buf, this);
  }
}

/** Gives the walk several tokens in order. */
function pushAll(push: (token: StateToken) => void, ...tokens: StateToken[]): void {
  for (const t of tokens) push(t);
}

/** [home, bytes] per home of `byBuffer`'s bytes, homes in ascending order. */
function perHome(byBuffer: Map<number, number>, homeOf: (buf: number) => number): Array<[number, number]> {
  const sums = new Map<number, number>();
  for (const [buf, bytes] of byBuffer) {
    const home = homeOf(buf);
    sums.set(home, (sums.get(home) ?? 0) + bytes);
  }
  return [...sums].sort(([a], [b]) => a - b);
}

/** Index of the first entry whose end lies beyond `pos` (entries are disjoint and sorted). */
function firstEndingAfter(list: readonly Entry[], pos: number): number {
  let hi = list.length;
  // Streams ascend: a range is most often looked up or placed past every range the cache holds.
  if (hi === 0 || list[hi - 1].start + list[hi - 1].length <= pos) return hi;
  let lo = 0;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid].start + list[mid].length <= pos) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function checkRange(name: string, start: number, length: number): void {
  if (!Number.isInteger(start) || !Number.isInteger(length) || start < 0 || length < 0) {
    throw new RangeError(`cache ${name}: bad range [${start}, +${length})`);
  }
}
