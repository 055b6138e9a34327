// A first-in first-out queue with O(1) removal from the front; waiters on mutexes, semaphores
// and channels are served in arrival order, and Array.shift() is O(n).
import { CANONICAL_STATE, type HasCanonicalState } from '../../common/state-fingerprint.ts';

export class Fifo<T> implements HasCanonicalState {
  /** What is queued, without the emptied slots before the head. */
  [CANONICAL_STATE](): unknown {
    return this.items.slice(this.head);
  }

  private items: (T | undefined)[] = [];
  private head = 0;

  get length(): number {
    return this.items.length - this.head;
  }

  push(item: T): void {
    this.items.push(item);
  }

  peek(): T | undefined {
    return this.items[this.head];
  }

  shift(): T | undefined {
    if (this.head === this.items.length) return undefined;
    const item = this.items[this.head];
    this.items[this.head++] = undefined;
    // Compact once the dead prefix dominates, so memory stays proportional to the live length.
    if (this.head > 64 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }
}
