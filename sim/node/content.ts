// What a simulated buffer holds: an interval map over [0, size) from byte ranges to their origin.
// Pieces are kept sorted, disjoint, covering and maximally merged, so two buffers holding the same
// data have identical piece lists and `equals` is a plain walk.

import { STATE_TOKENS, type StateToken } from '../../common/state-fingerprint.ts';
import { dataOrigin, originKey, reduceOrigins, type Origin } from './origin.ts';

export type { Origin } from './origin.ts';

/** Bytes [start, start+length) hold bytes offset.. of `origin`; a null origin is uninitialised. */
export interface Piece {
  readonly start: number;
  readonly length: number;
  readonly origin: Origin | null;
  readonly offset: number;
}

export class Content {
  readonly size: number;
  // Invariant: sorted by start, contiguous from 0 to size, no two neighbours mergeable, no empty piece.
  private list: Piece[];

  private constructor(size: number, list: Piece[]) {
    this.size = size;
    this.list = list;
  }

  static uninitialised(size: number): Content {
    checkSize(size);
    return new Content(size, size === 0 ? [] : [piece(0, size, null, 0)]);
  }

  /** Byte i holds byte i of `source`: a buffer its owner has just filled. */
  static fresh(size: number, source: string): Content {
    checkSize(size);
    return new Content(size, size === 0 ? [] : [piece(0, size, dataOrigin(source), 0)]);
  }

  clone(): Content {
    return new Content(this.size, this.list.slice());
  }

  pieces(): readonly Piece[] {
    return this.list;
  }

  /** The pieces covering [start, start+length), rebased so the first starts at 0. */
  slice(start: number, length: number): Piece[] {
    this.checkRange(start, length);
    const out: Piece[] = [];
    if (length === 0) return out;
    const end = start + length;
    for (let i = this.indexAt(start); i < this.list.length && this.list[i].start < end; i++) {
      const p = this.list[i];
      const from = Math.max(p.start, start);
      const to = Math.min(p.start + p.length, end);
      out.push(piece(from - start, to - from, p.origin, advance(p, from - p.start)));
    }
    return out;
  }

  /** Copy semantics: bytes [at, at+len) become the given pieces (which start at 0 and are contiguous). */
  write(at: number, pieces: readonly Piece[]): void {
    const length = checkPieces(pieces);
    this.checkRange(at, length);
    if (length === 0) return;
    const shifted: Piece[] = [];
    for (const p of pieces) if (p.length > 0) shifted.push(piece(p.start + at, p.length, p.origin, p.offset));
    this.replace(at, length, shifted);
  }

  /** this[at+i] = op(this[at+i], src[i]); reducing into or from uninitialised bytes is a bug. */
  reduceInto(at: number, pieces: readonly Piece[], op: string): void {
    const length = checkPieces(pieces);
    this.checkRange(at, length);
    if (length === 0) return;
    const dst = this.slice(at, length);
    const src = pieces.filter((p) => p.length > 0);
    const out: Piece[] = [];
    let i = 0;
    let j = 0;
    let pos = 0;
    // Walk both piece lists together; every segment where neither changes gets one reduced origin.
    while (pos < length) {
      const d = dst[i];
      const s = src[j];
      const segEnd = Math.min(d.start + d.length, s.start + s.length);
      if (d.origin === null) {
        throw new Error(`reduceInto: destination bytes [${at + pos}, ${at + segEnd}) are uninitialised`);
      }
      if (s.origin === null) {
        throw new Error(`reduceInto: source bytes [${pos}, ${segEnd}) are uninitialised`);
      }
      const r = reduceOrigins(
        op,
        { origin: d.origin, offset: advance(d, pos - d.start) },
        { origin: s.origin, offset: advance(s, pos - s.start) },
      );
      out.push(piece(at + pos, segEnd - pos, r.origin, r.offset));
      pos = segEnd;
      if (pos === d.start + d.length) i++;
      if (pos === s.start + s.length) j++;
    }
    this.replace(at, length, out);
  }

  equals(other: Content): boolean {
    if (this.size !== other.size || this.list.length !== other.list.length) return false;
    return this.list.every((p, k) => samePiece(p, other.list[k]));
  }

  /**
   * What stands for the content in a fingerprint of the simulation (common/state-fingerprint.ts):
   * its pieces by value, each origin by its parts (`equals` compares the same by key). Origins are
   * immutable values, so two contents that hold equal origins in different objects are the same
   * state; a buffer's content is half of a large node's state, and this is far shorter than the
   * pieces walked as objects.
   */
  [STATE_TOKENS](push: (token: StateToken) => void): void {
    push(this.size);
    push(this.list.length);
    for (const p of this.list) {
      push(p.start);
      push(p.length);
      if (p.origin === null) push(null);
      else if (p.origin.kind === 'data') {
        push('data');
        push(p.origin.source);
      } else {
        // By structure, not by `originKey`, whose text two origins could share if a source's name
        // held its separators.
        push('reduce');
        push(p.origin.op);
        push(p.origin.terms.length);
        for (const t of p.origin.terms) {
          push(t.source);
          push(t.shift);
        }
      }
      push(p.offset);
    }
  }

  /** Short and human-readable, for failing-test messages. */
  describe(): string {
    return `Content(${this.size}) ${describePieces(this.list)}`;
  }

  /** Index of the piece containing byte `pos` (0 <= pos < size). */
  private indexAt(pos: number): number {
    let lo = 0;
    let hi = this.list.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.list[mid].start <= pos) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** Replaces [at, at+length) by `repl` (absolute positions, covering it exactly), then re-merges. */
  private replace(at: number, length: number, repl: Piece[]): void {
    const end = at + length;
    const first = this.indexAt(at);
    const last = this.indexAt(end - 1);
    const head = this.list[first];
    const tail = this.list[last];
    // The window to re-merge: the neighbours outside the replaced span (they may now merge with its
    // ends), what is left of its first and last pieces, and `repl` between. Pushed one by one, not
    // spread: this runs for every copy's content.
    const from = Math.max(first - 1, 0);
    const to = Math.min(last + 1, this.list.length - 1);
    const window: Piece[] = [];
    for (let k = from; k < first; k++) window.push(this.list[k]);
    if (head.start < at) window.push(piece(head.start, at - head.start, head.origin, head.offset));
    for (const p of repl) window.push(p);
    const tailEnd = tail.start + tail.length;
    if (tailEnd > end) window.push(piece(end, tailEnd - end, tail.origin, advance(tail, end - tail.start)));
    for (let k = last + 1; k <= to; k++) window.push(this.list[k]);
    const merged = mergeRun(window);
    const count = to - from + 1;
    if (merged.length === count) for (let k = 0; k < count; k++) this.list[from + k] = merged[k];
    else this.list.splice(from, count, ...merged);
  }

  private checkRange(start: number, length: number): void {
    if (
      !Number.isInteger(start) ||
      !Number.isInteger(length) ||
      start < 0 ||
      length < 0 ||
      start + length > this.size
    ) {
      throw new RangeError(`range [${start}, ${start + length}) is outside a buffer of ${this.size} bytes`);
    }
  }
}

/** What `slice(start, length)` of a freshly filled buffer of `source` returns. */
export function expectedFresh(source: string, start: number, length: number): Piece[] {
  return length === 0 ? [] : [piece(0, length, dataOrigin(source), start)];
}

/** What `slice(start, length)` returns after reducing bytes [start, start+length) of every source with `op`. */
export function expectedReduction(op: string, sources: readonly string[], start: number, length: number): Piece[] {
  if (sources.length === 0) throw new Error('expectedReduction: no sources');
  if (length === 0) return [];
  let acc = { origin: dataOrigin(sources[0]), offset: start };
  for (const s of sources.slice(1)) acc = reduceOrigins(op, acc, { origin: dataOrigin(s), offset: start });
  return [piece(0, length, acc.origin, acc.offset)];
}

/** True when two piece lists describe the same bytes (both must be merged, as `slice` returns them). */
export function piecesEqual(a: readonly Piece[], b: readonly Piece[]): boolean {
  return a.length === b.length && a.every((p, k) => samePiece(p, b[k]));
}

export function describePieces(pieces: readonly Piece[], max = 6): string {
  const shown = pieces.slice(0, max).map((p) => {
    const what = p.origin === null ? 'uninitialised' : `${originKey(p.origin)}+${p.offset}`;
    return `[${p.start},${p.start + p.length}) ${what}`;
  });
  if (pieces.length > max) shown.push(`... ${pieces.length - max} more`);
  return shown.join(' | ') || '(empty)';
}

// Pieces are shared (a content's `clone` and `pieces` hand out its own, and `replace` keeps the
// neighbours it re-merges), so nothing may change one: `Piece`'s fields are readonly. Not frozen at
// run time as well: every copy makes several, and freezing costs more than making one.
function piece(start: number, length: number, origin: Origin | null, offset: number): Piece {
  return { start, length, origin, offset: origin === null ? 0 : offset };
}

/** Offset of the byte `delta` into piece `p` (uninitialised bytes have no offset). */
function advance(p: Piece, delta: number): number {
  return p.origin === null ? 0 : p.offset + delta;
}

function sameOrigin(a: Origin | null, b: Origin | null): boolean {
  if (a === null || b === null) return a === b;
  return a === b || originKey(a) === originKey(b);
}

function samePiece(a: Piece, b: Piece): boolean {
  return a.start === b.start && a.length === b.length && sameOrigin(a.origin, b.origin) && a.offset === b.offset;
}

/** Merges neighbours holding consecutive bytes of the same origin. */
function mergeRun(run: Piece[]): Piece[] {
  const out: Piece[] = [];
  for (const p of run) {
    const prev = out[out.length - 1];
    if (
      prev !== undefined &&
      sameOrigin(prev.origin, p.origin) &&
      (p.origin === null || prev.offset + prev.length === p.offset)
    ) {
      out[out.length - 1] = piece(prev.start, prev.length + p.length, prev.origin, prev.offset);
    } else {
      out.push(p);
    }
  }
  return out;
}

function checkSize(size: number): void {
  if (!Number.isInteger(size) || size < 0)
    throw new RangeError(`buffer size must be a non-negative integer, got ${size}`);
}

/** Pieces handed to write/reduceInto must start at 0 and be contiguous; returns their total length. */
function checkPieces(pieces: readonly Piece[]): number {
  let pos = 0;
  for (const p of pieces) {
    if (p.start !== pos || !Number.isInteger(p.length) || p.length < 0) {
      throw new RangeError(
        `pieces must be contiguous from 0: expected one starting at ${pos}, got [${p.start}, +${p.length})`,
      );
    }
    pos += p.length;
  }
  return pos;
}
