// The collective forms of a control channel (bcast, gather, allgather, barrier), built linearly on
// its point-to-point send and recv: the root talks to every other rank in turn. The world's
// channel and a sub-communicator's share them, so both order their messages the same way.
import type { Program } from '../engine/program.ts';
import type { Control } from './rank-api.ts';

export abstract class LinearCollectives implements Control {
  /** This rank and the number of ranks, in the channel's own numbering. */
  constructor(
    protected readonly me: number,
    protected readonly size: number,
  ) {}

  abstract send(to: number, value: unknown): Program<void>;
  abstract recv(from: number): Program<unknown>;

  /** Without a shared flag line (a channel over other messages): one message per reader. */
  *publish(readers: readonly number[], value: unknown): Program<void> {
    for (const r of readers) yield* this.send(r, value);
  }

  *bcast<T>(root: number, value?: T): Program<T> {
    if (this.me === root) {
      for (let r = 0; r < this.size; r++) if (r !== root) yield* this.send(r, value);
      return value as T;
    }
    return (yield* this.recv(root)) as T;
  }

  *gather<T>(root: number, value?: T): Program<T[] | undefined> {
    if (this.me !== root) {
      yield* this.send(root, value);
      return undefined;
    }
    const all: T[] = [];
    for (let r = 0; r < this.size; r++) all[r] = r === root ? (value as T) : ((yield* this.recv(r)) as T);
    return all;
  }

  *allgather<T>(value: T): Program<T[]> {
    const all = yield* this.gather(0, value);
    return yield* this.bcast<T[]>(0, all);
  }

  *barrier(): Program<void> {
    yield* this.gather(0, null);
    yield* this.bcast(0, null);
  }
}
