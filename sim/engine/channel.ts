// An unbounded FIFO mailbox. put() never blocks; get() blocks only while the mailbox is empty,
// and blocked getters are served in arrival order.

import type { Program } from './program.ts';
import { Fifo } from './fifo.ts';
import { LiveSignal } from './signal.ts';

export class Channel<T> {
  private readonly items = new Fifo<T>();
  private readonly getters = new Fifo<LiveSignal<T>>();

  constructor(readonly name: string) {}

  /** Messages waiting to be taken. */
  get length(): number {
    return this.items.length;
  }

  put(v: T): void {
    const getter = this.getters.shift();
    if (getter === undefined) this.items.push(v);
    else getter.fire(v);
  }

  *get(): Program<T> {
    if (this.items.length > 0) return this.items.shift() as T;
    const receive = new LiveSignal<T>(() => `a message on channel "${this.name}"`);
    this.getters.push(receive);
    return (yield receive) as T;
  }
}
