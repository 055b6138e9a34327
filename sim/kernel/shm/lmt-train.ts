// The Nemesis LMT pipeline as a train: once its chunks move in a steady state that nothing else in
// the run can disturb, many chunks advance in one step instead of one flow and a few events each.
//
// A train is exact, not fitted. At every chunk start (a boundary) it notes the pipeline's state:
// which side starts, what the other side waits for, the pending flag and slot notices relative to
// now, the slots' permits, and, once the copy is prepared, the copy's resources, weights and latency.
// The pipeline is in a steady state when the last two periods (one chunk of each side) match in all
// of that and in their durations. It then advances m periods at once only where the simulation
// itself shows that nothing else can happen meanwhile:
// - no flow is active anywhere on the node (so the chunks' rates are the ones measured, and no
//   other copy's progress depends on the chunks' phases);
// - no event other than the train's own notices is queued before m + 1 periods from now (so nothing
//   else starts in that time: every change to the node comes from an event);
// - the m periods' copies, prepared in order against the caches (Node.prepareCopy), load the same
//   resources with the same weights and latency as the measured ones; the caches are saved first and
//   put back if a copy differs, and m stops before it (a cache filling up ends a steady state).
// It then commits those copies' cache effects and contents in order, shifts its pending notices by
// m periods, lets the side at the boundary sleep them, and adds the periods' step times to the
// trace totals. m is a multiple of the ring's turn (the periods after which the chunks' slots
// repeat: slots / gcd(slots, chunks per period)), so every slot and permit is where it was.
// Anything else falls back to chunk-by-chunk, which runs without trains (World.trains) always use,
// as do machines with a victim cache (filled at each copy's end, which a look-ahead does not order).
import type { Cancellable } from '../../engine/waitable.ts';
import type { Program } from '../../engine/program.ts';
import { range, subRange, type Buffer, type Range } from '../../node/buffer.ts';
import { piecesEqual } from '../../node/content.ts';
import type { PreparedCopy } from '../../node/node.ts';
import type { World } from '../../node/world.ts';
import type { Semaphore } from '../../engine/semaphore.ts';
import { traced } from './transport.ts';

/** 0: the sender copying chunks into the ring; 1: the receiver copying them out. */
export type Side = 0 | 1;

/** What a side blocked between its chunks waits for. */
type Waiting = 'slot' | 'notice' | undefined;

/** Relative tolerance on times compared between periods: far below any printed digit, above the
 *  rounding of sums of a few thousand float durations. A numerical tolerance, not a model constant. */
const SAME_REL = 1e-9;

/** Longest steady period looked for, in chunk starts of both sides: a bound on the marks kept. */
const MAX_PERIOD = 8;

interface Mark {
  side: Side;
  t: number;
  state: string;
  /** The copy prepared at this boundary: what decides its time is compared (sameCost). */
  prep: PreparedCopy | undefined;
  /** Step time the two sides had recorded by then, per kind. */
  acc: Map<string, number>;
}

interface Timer {
  at: number;
  fn: () => void;
  kind: string;
}

interface SideInfo {
  rank: number;
  core: number;
  /** The sender's message, or the receiver's destination. */
  user: Range;
  label: string;
}

export interface RingView {
  buf: Buffer;
  empty: readonly Semaphore[];
  /** The pipeline's chunk: what one copy moves (at most a slot). */
  chunkBytes: number;
  /** A slot's room in the ring: where slot k starts is k times this. */
  slotBytes: number;
  slots: number;
}

export class LmtTrain {
  readonly chunks: number;
  /** Index of the chunk each side copies next. */
  readonly next: [number, number] = [0, 0];
  private readonly waiting: [Waiting, Waiting] = [undefined, undefined];
  private readonly sides: [SideInfo | undefined, SideInfo | undefined] = [undefined, undefined];
  private readonly timers = new Map<Cancellable, Timer>();
  private marks: Mark[] = [];
  /** Each side's mark of its current boundary, whose copy key is filled in once prepared. */
  private readonly open: [Mark | undefined, Mark | undefined] = [undefined, undefined];
  private readonly acc = new Map<string, number>();
  /** Notices delivered and not yet taken by the receiver. */
  private queued = 0;
  /** Periods advanced in bulk, for tests and reports. */
  skipped = 0;

  constructor(
    private readonly world: World,
    private readonly ring: RingView,
    bytes: number,
  ) {
    this.chunks = Math.ceil(bytes / ring.chunkBytes);
  }

  joinSender(info: SideInfo): void {
    this.sides[0] = info;
  }

  joinReceiver(info: SideInfo): void {
    this.sides[1] = info;
  }

  /** Every transfer starts at the ring's first slot: MPICH2's get_next_req sets lmt_buf_num to 0
   *  when it takes the next LMT of a pair (mpid_nem_lmt_shm.c). */
  slotOf(chunk: number): number {
    return chunk % this.ring.slots;
  }

  /** Bytes of chunk `j` (the last may be short). */
  bytesOf(j: number, total: number): number {
    return Math.min(this.ring.chunkBytes, total - j * this.ring.chunkBytes);
  }

  /** Schedules one of the pipeline's notices (a flag the other side sees later), which a bulk step shifts. */
  timer(delay: number, kind: string, fn: () => void): void {
    const sim = this.world.sim;
    const entry: Timer = { at: sim.now + delay, fn, kind };
    const handle: Cancellable = sim.schedule(delay, () => {
      this.timers.delete(handle);
      fn();
    });
    this.timers.set(handle, entry);
  }

  noticeDelivered(): void {
    this.queued++;
  }

  noticeTaken(): void {
    this.queued--;
  }

  /** `body` as a traced step of `kind`, its time also counted for the train's periods. */
  *step<T>(side: Side, kind: string, label: string, body: Program<T>, waits: Waiting): Program<T> {
    const start = this.world.sim.now;
    this.waiting[side] = waits;
    const value = yield* traced(this.world, this.sides[side]!.rank, kind, label, body);
    this.waiting[side] = undefined;
    this.count(kind, this.world.sim.now - start);
    return value;
  }

  /** A copy prepared at a boundary: noted for the steady-state test, then run. */
  *copy(side: Side, prep: PreparedCopy): Program<void> {
    const mark = this.open[side];
    if (mark !== undefined) mark.prep = prep;
    this.open[side] = undefined;
    const start = this.world.sim.now;
    yield* this.world.node.runCopy(prep);
    this.count('copy', this.world.sim.now - start);
  }

  /**
   * Side `side` is about to start its next chunk. Returns 0, or the ns it must sleep because the
   * train has just advanced that many periods in bulk (both sides' `next` moved on).
   */
  boundary(side: Side): number {
    if (!this.world.trains) return 0;
    const now = this.world.sim.now;
    const state = this.state(side);
    const ns = this.tryAdvance(side, now, state);
    if (ns > 0) {
      this.marks = [];
      this.open[0] = this.open[1] = undefined;
      return ns;
    }
    const mark: Mark = { side, t: now, state, prep: undefined, acc: new Map(this.acc) };
    this.open[side] = mark;
    this.marks.push(mark);
    if (this.marks.length > 2 * MAX_PERIOD) this.marks.shift();
    return 0;
  }

  private count(kind: string, ns: number): void {
    this.acc.set(kind, (this.acc.get(kind) ?? 0) + ns);
  }

  /** The pipeline's state at a boundary of `side`, relative to now and to the sender's slot. */
  private state(side: Side): string {
    const now = this.world.sim.now;
    const pending = [...this.timers.values()].map((t) => `${t.kind}@${t.at - now}`).sort();
    const base = this.slotOf(this.next[0]);
    const permits: number[] = [];
    for (let i = 0; i < this.ring.slots; i++) permits.push(this.ring.empty[(base + i) % this.ring.slots].available);
    const other = this.waiting[1 - side];
    return `${side}|${other ?? '-'}|${this.next[0] - this.next[1]}|${this.queued}|${permits.join(',')}|${pending.join(',')}`;
  }

  /**
   * The steady period ending now, if the marks show one: `length` boundaries (each side's chunks in
   * turn, as many of each) that repeat the `length` before them in every respect, the current
   * boundary being where the next repetition starts.
   */
  private period(
    side: Side,
    now: number,
    state: string,
  ): { length: number; ns: number; perKind: Map<string, number> } | undefined {
    const marks = this.marks;
    for (let length = 2; 2 * length <= marks.length; length += 2) {
      const a = marks.length - 2 * length;
      const b = marks.length - length;
      const A = marks[a];
      const B = marks[b];
      if (B.side !== side || B.state !== state || A.state !== state) continue;
      const ns = now - B.t;
      if (!(ns > 0) || !same(ns, B.t - A.t, ns)) continue;
      let ok = true;
      let sender = 0;
      for (let i = 0; i < length && ok; i++) {
        const x = marks[a + i];
        const y = marks[b + i];
        if (y.side === 0) sender++;
        ok = x.side === y.side && x.state === y.state && sameCost(x.prep, y.prep) && same(y.t - B.t, x.t - A.t, ns);
      }
      if (!ok || 2 * sender !== length) continue;
      const perKind = new Map<string, number>();
      for (const [kind, total] of this.acc) {
        const d = total - (B.acc.get(kind) ?? 0);
        if (!same(d, (B.acc.get(kind) ?? 0) - (A.acc.get(kind) ?? 0), ns)) ok = false;
        perKind.set(kind, d);
      }
      if (ok) return { length, ns, perKind };
    }
    return undefined;
  }

  private tryAdvance(side: Side, now: number, state: string): number {
    if (this.sides[0] === undefined || this.sides[1] === undefined) return 0;
    const node = this.world.node;
    // A victim cache is filled at each copy's end, an order the look-ahead's copies prepared back to
    // back do not keep: on such machines every chunk is simulated.
    if (node.net.activeFlowCount > 0 || node.pages.pending || node.hasVictimCaches) return 0;
    const other = (1 - side) as Side;
    const waits = this.waiting[other];
    if (waits === undefined) return 0;
    const found = this.period(side, now, state);
    if (found === undefined) return 0;
    const { length, ns: period, perKind } = found;
    for (const t of this.timers.values()) if (!(t.at > now && t.at - now < period)) return 0;
    const steps = this.marks.slice(this.marks.length - length);
    const chunksPer = length / 2;
    const horizon = this.world.sim.nextEventTimeExcept(new Set(this.timers.keys()));
    const byTime = Math.floor((horizon - now) / period) - 1;
    const byChunks = Math.floor(
      (Math.min(this.chunks - this.next[side], this.chunks - this.next[other]) - 2) / chunksPer,
    );
    // Whole turns of the ring, so that every slot and permit ends where it was.
    const unit = this.ring.slots / gcd(this.ring.slots, chunksPer);
    let m = Math.min(byTime, byChunks);
    m -= m % unit;
    if (!(m >= unit)) return 0;
    // Look ahead: the copies of the next m periods, in their order, against the caches as they go.
    // Where one differs, the caches and the ring go back to how they were and only the whole turns
    // before it are done again. (A destination chunk written early is written again, with the same
    // bytes, by its own copy later: nothing reads it before the message is complete.)
    const saved = node.saveCaches();
    const ring = this.ring.buf.content.clone();
    const ok = this.replay(steps, m);
    if (ok < m) {
      node.restoreCaches(saved);
      this.ring.buf.content = ring;
      m = ok - (ok % unit);
      if (m < unit) return 0;
      if (this.replay(steps, m) !== m) throw new Error('lmt train: a look-ahead that matched did not match again');
    }
    const shift = m * period;
    this.shiftTimers(shift);
    this.next[0] += m * chunksPer;
    this.next[1] += m * chunksPer;
    const trace = node.trace;
    for (const [kind, d] of perKind) {
      trace.addTime(kind, m * d);
      this.count(kind, m * d);
    }
    // The waiting side's current step will record the skipped time as one long wait; the periods'
    // own steps were added above instead.
    const waitKind = waits === 'notice' ? 'poll' : 'wait';
    trace.addTime(waitKind, -shift);
    this.count(waitKind, -shift);
    this.skipped += m * chunksPer;
    return shift;
  }

  /**
   * Prepares the copies of up to `m` periods from the sides' next chunks, in the order of the
   * period's boundaries `steps`, comparing each with the measured ones, and moves each copy's
   * content as its flow's end would. Returns how many periods matched.
   */
  private replay(steps: readonly Mark[], m: number): number {
    const at: [number, number] = [this.next[0], this.next[1]];
    for (let p = 0; p < m; p++) {
      for (const step of steps) {
        const s = step.side;
        const j = at[s]++;
        const prep = this.prepare(s, j);
        if (!sameCost(prep, step.prep)) return p;
        if (s === 1) this.checkSlotHolds(prep, j);
        prep.dst.buf.content.write(prep.dst.offset, prep.snapshot);
      }
    }
    return m;
  }

  /** Chunk `j` of side `s`: its part of the side's buffer and the ring slot it goes through. */
  ranges(s: Side, j: number): { user: Range; slot: Range } {
    const info = this.sides[s]!;
    const bytes = this.bytesOf(j, info.user.bytes);
    return {
      user: subRange(info.user, j * this.ring.chunkBytes, bytes),
      slot: range(this.ring.buf, this.slotOf(j) * this.ring.slotBytes, bytes),
    };
  }

  /** Node.prepareCopy of chunk `j` of side `s`. */
  prepare(s: Side, j: number): PreparedCopy {
    const info = this.sides[s]!;
    const { user, slot } = this.ranges(s, j);
    const [src, dst] = s === 0 ? [user, slot] : [slot, user];
    return this.world.node.prepareCopy(info.core, src, dst, { rank: info.rank, label: info.label });
  }

  /** The receiver's chunk j reads what the sender put in its slot: chunk j of the message. */
  private checkSlotHolds(prep: PreparedCopy, j: number): void {
    const sender = this.sides[0]!.user;
    const c = this.ring.chunkBytes;
    const expected = sender.buf.content.slice(sender.offset + j * c, prep.src.bytes);
    if (!piecesEqual(prep.snapshot, expected)) throw new Error(`lmt train: slot of chunk ${j} lost its data`);
  }

  private shiftTimers(shift: number): void {
    const sim = this.world.sim;
    const pending = [...this.timers.entries()];
    this.timers.clear();
    // Stable sort: timers due at the same time keep the order they were set in.
    pending.sort((a, b) => a[1].at - b[1].at);
    for (const [handle, t] of pending) {
      handle.cancel();
      this.timer(t.at + shift - sim.now, t.kind, t.fn);
    }
  }
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}

function same(a: number, b: number, scale: number): boolean {
  return Math.abs(a - b) <= SAME_REL * Math.abs(scale);
}

/** Whether two prepared copies cost the same: bytes, latency, and every resource with its weight
 *  in the same order (the node plans a copy's uses in a fixed order). */
function sameCost(a: PreparedCopy | undefined, b: PreparedCopy | undefined): boolean {
  if (a === undefined || b === undefined) return false;
  if (a.src.bytes !== b.src.bytes || a.latency !== b.latency || a.uses.size !== b.uses.size) return false;
  const other = b.uses.entries();
  for (const [r, w] of a.uses) {
    const [r2, w2] = other.next().value!;
    if (r !== r2 || w !== w2) return false;
  }
  return true;
}
