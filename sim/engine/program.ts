// A simulated process is a generator that yields the Waitables it blocks on. Sub-programs compose
// with `yield*`, so a collective reads like straight-line pseudocode while time passes underneath.

import type { Waitable } from './waitable.ts';

export type Program<T = void> = Generator<Waitable<unknown>, T, unknown>;

/** Blocks the calling process until `w` fires; returns its value. Usage: `const v = yield* wait(w)`. */
export function* wait<T>(w: Waitable<T>): Program<T> {
  return (yield w) as T;
}
