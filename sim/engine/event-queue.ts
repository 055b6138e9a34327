// The future event list: a binary min-heap on (time, insertion sequence). The sequence number
// breaks ties so that two runs with the same inputs pop events in the same order.
//
// Keys live in parallel typed arrays and entries in a plain array, so a comparison touches no
// object and an event costs no closure: the entry itself knows how to fire.
import { CANONICAL_STATE, type HasCanonicalState } from '../../common/state-fingerprint.ts';

/** Anything that can sit in the queue. Entries are the timeout, process or callback objects. */
export interface QueueEntry {
  fireEvent(): void;
  /** False for an entry that will do nothing when it fires (a cancelled callback). */
  live?(): boolean;
}

const INITIAL_CAPACITY = 1024;

export class EventQueue implements HasCanonicalState {
  /** A queue with events in it is never the same state as another (no run is replayed mid-way). */
  [CANONICAL_STATE](): unknown {
    return this.count === 0 ? 'empty' : { pending: Symbol('pending events') };
  }

  private times = new Float64Array(INITIAL_CAPACITY);
  private seqs = new Float64Array(INITIAL_CAPACITY);
  private entries = new Array<QueueEntry | undefined>(INITIAL_CAPACITY);
  private count = 0;
  private nextSeq = 0;

  get size(): number {
    return this.count;
  }

  /** Time of the earliest event, or Infinity when empty. */
  peekTime(): number {
    return this.count > 0 ? this.times[0] : Infinity;
  }

  /** Time of the earliest entry that is live and not `excluded`, or Infinity: a scan of every
   *  entry, for the rare question "when does anything else happen?". */
  earliestExcept(excluded: (entry: QueueEntry) => boolean): number {
    let best = Infinity;
    for (let i = 0; i < this.count; i++) {
      const t = this.times[i];
      if (t >= best) continue;
      const e = this.entries[i] as QueueEntry;
      if (e.live !== undefined && !e.live()) continue;
      if (excluded(e)) continue;
      best = t;
    }
    return best;
  }

  push(time: number, entry: QueueEntry): void {
    if (this.count === this.times.length) this.grow();
    this.siftUp(this.count++, time, this.nextSeq++, entry);
  }

  /** Removes and returns the earliest entry; the caller reads its time with peekTime() first. */
  pop(): QueueEntry {
    const times = this.times;
    const seqs = this.seqs;
    const entries = this.entries;
    const top = entries[0] as QueueEntry;
    const n = --this.count;
    if (n > 0) {
      const time = times[n];
      const seq = seqs[n];
      const entry = entries[n];
      entries[n] = undefined;
      // Bottom-up: walk the hole down to a leaf along the smaller children, then sift the former
      // last entry up from there. The last entry almost always belongs near the bottom, so this
      // does about half the comparisons of the textbook sift-down.
      let i = 0;
      for (;;) {
        let c = 2 * i + 1;
        if (c >= n) break;
        const r = c + 1;
        if (r < n) {
          const rt = times[r];
          const ct = times[c];
          if (rt < ct || (rt === ct && seqs[r] < seqs[c])) c = r;
        }
        times[i] = times[c];
        seqs[i] = seqs[c];
        entries[i] = entries[c];
        i = c;
      }
      this.siftUp(i, time, seq, entry as QueueEntry);
    } else {
      entries[0] = undefined;
    }
    return top;
  }

  /** Places (time, seq, entry) at the hole `i` or above it, moving later parents down. */
  private siftUp(i: number, time: number, seq: number, entry: QueueEntry): void {
    const times = this.times;
    const seqs = this.seqs;
    const entries = this.entries;
    while (i > 0) {
      const p = (i - 1) >> 1;
      const pt = times[p];
      if (pt < time || (pt === time && seqs[p] < seq)) break;
      times[i] = pt;
      seqs[i] = seqs[p];
      entries[i] = entries[p];
      i = p;
    }
    times[i] = time;
    seqs[i] = seq;
    entries[i] = entry;
  }

  /**
   * Drops every entry that would do nothing when it fires (a cancelled callback), keeping the
   * others' (time, sequence) keys, so they pop in the same order as before. The flow network
   * cancels and reschedules its completion wakeup at every re-solve; a cancelled one stays queued
   * until its time, far in the future while a long flow runs, and would otherwise pile up.
   */
  dropDead(): void {
    const keep: number[] = [];
    for (let i = 0; i < this.count; i++) {
      const e = this.entries[i] as QueueEntry;
      if (e.live === undefined || e.live()) keep.push(i);
    }
    // Sorted by (time, seq), the kept entries form a heap as they stand.
    keep.sort((a, b) => this.times[a] - this.times[b] || this.seqs[a] - this.seqs[b]);
    const times = new Float64Array(this.times.length);
    const seqs = new Float64Array(this.seqs.length);
    const entries = new Array<QueueEntry | undefined>(this.entries.length);
    keep.forEach((from, to) => {
      times[to] = this.times[from];
      seqs[to] = this.seqs[from];
      entries[to] = this.entries[from];
    });
    this.times = times;
    this.seqs = seqs;
    this.entries = entries;
    this.count = keep.length;
  }

  private grow(): void {
    const capacity = this.times.length * 2;
    const times = new Float64Array(capacity);
    const seqs = new Float64Array(capacity);
    times.set(this.times);
    seqs.set(this.seqs);
    this.times = times;
    this.seqs = seqs;
    this.entries.length = capacity;
  }
}
