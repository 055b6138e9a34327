// A one-shot flag: fires once with a value; every waiter, earlier or later, gets that value.

import type { Program } from './program.ts';
import type { Waitable } from './waitable.ts';

export class Signal<T = void> implements Waitable<T> {
  private isFired = false;
  private firedValue: T | undefined = undefined;
  private callbacks: ((value: T) => void)[] | null = null;

  constructor(private readonly label: string) {}

  get description(): string {
    return this.label;
  }

  get fired(): boolean {
    return this.isFired;
  }

  get value(): T | undefined {
    return this.firedValue;
  }

  /** Firing twice throws: a one-shot flag fired twice is a protocol bug worth stopping on. */
  fire(value: T): void {
    if (this.isFired) throw new Error(`signal "${this.description}" fired twice`);
    this.isFired = true;
    this.firedValue = value;
    const callbacks = this.callbacks;
    if (callbacks !== null) {
      this.callbacks = null;
      for (const cb of callbacks) cb(value);
    }
  }

  onFire(cb: (value: T) => void): void {
    if (this.isFired) cb(this.firedValue as T);
    else (this.callbacks ??= []).push(cb);
  }

  *wait(): Program<T> {
    return (yield this) as T;
  }
}

/**
 * A signal whose description is computed when asked, so a deadlock report shows the state at the
 * moment of the deadlock (who holds the mutex now), not at the moment of waiting.
 */
export class LiveSignal<T = void> extends Signal<T> {
  constructor(private readonly describe: () => string) {
    super('');
  }

  override get description(): string {
    return this.describe();
  }
}
