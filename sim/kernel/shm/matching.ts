// MPI message matching at one receiver: a receive names (source, tag) and takes the earliest
// message of that pair with that tag; receives are satisfied in the order they were posted.
// Messages of one pair enter matching in the order they were sent (their sequence numbers), even
// when a later one travelled a faster path (fastbox versus queue), as Nemesis's seqno check ensures.
import { CANONICAL_STATE, type HasCanonicalState } from '../../../common/state-fingerprint.ts';
import { Signal } from '../../engine/signal.ts';

export interface Matchable {
  from: number;
  tag: number;
  seq: number;
}

interface Posted<P> {
  tag: number;
  matched: Signal<P>;
}

interface Pair<P> {
  nextSeq: number;
  /** Arrived ahead of an earlier message of the pair. */
  early: Map<number, P>;
  unexpected: P[];
  posted: Posted<P>[];
}

export class Matcher<P extends Matchable> implements HasCanonicalState {
  private readonly pairs = new Map<number, Pair<P>>();

  constructor(readonly rank: number) {}

  /** The sequence number the next message from `from` must carry to enter matching. */
  expectedSeq(from: number): number {
    return this.pairs.get(from)?.nextSeq ?? 0;
  }

  /**
   * Sequence numbers only order the messages of a pair: the state is what waits, with early
   * arrivals keyed by their distance from the next expected number (the sender's side is in
   * delivery.ts).
   */
  [CANONICAL_STATE](): unknown {
    return [...this.pairs].map(([from, p]) => ({
      from,
      early: [...p.early].map(([seq, m]) => [seq - p.nextSeq, m]),
      unexpected: p.unexpected,
      posted: p.posted,
    }));
  }

  /** A message's first packet reaches this rank. */
  arrive(message: P): void {
    const pair = this.pair(message.from);
    if (message.seq !== pair.nextSeq) {
      pair.early.set(message.seq, message);
      return;
    }
    for (let next: P | undefined = message; next !== undefined; next = pair.early.get(pair.nextSeq)) {
      pair.early.delete(pair.nextSeq);
      pair.nextSeq++;
      this.enter(pair, next);
    }
  }

  /** Posts a receive now (posting order is matching order); the signal fires with its message. */
  post(from: number, tag: number): Signal<P> {
    const pair = this.pair(from);
    const matched = new Signal<P>(`rank ${this.rank}: a message from rank ${from} with tag ${tag}`);
    const i = pair.unexpected.findIndex((m) => m.tag === tag);
    if (i >= 0) matched.fire(pair.unexpected.splice(i, 1)[0]);
    else pair.posted.push({ tag, matched });
    return matched;
  }

  /** Messages that arrived and wait for a receive, for diagnostics. */
  unexpectedCount(): number {
    let n = 0;
    for (const pair of this.pairs.values()) n += pair.unexpected.length;
    return n;
  }

  private enter(pair: Pair<P>, message: P): void {
    const i = pair.posted.findIndex((p) => p.tag === message.tag);
    if (i >= 0) pair.posted.splice(i, 1)[0].matched.fire(message);
    else pair.unexpected.push(message);
  }

  private pair(from: number): Pair<P> {
    let pair = this.pairs.get(from);
    if (!pair) {
      pair = { nextSeq: 0, early: new Map(), unexpected: [], posted: [] };
      this.pairs.set(from, pair);
    }
    return pair;
  }
}
