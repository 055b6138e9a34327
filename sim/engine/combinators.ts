// Joining several waitables into one: wait for all, or for the first.

import { LiveSignal } from './signal.ts';
import type { Waitable } from './waitable.ts';

/** Fires when every input has fired, with their values in input order. Empty input: fires at once. */
export function all<T>(ws: Waitable<T>[], description?: string): Waitable<T[]> {
  const values = new Array<T>(ws.length);
  const done = new Array<boolean>(ws.length).fill(false);
  let remaining = ws.length;
  const result = new LiveSignal<T[]>(
    () =>
      description ??
      `all of [${ws
        .filter((_, i) => !done[i])
        .map((w) => w.description)
        .join(', ')}]`,
  );
  if (remaining === 0) result.fire(values);
  ws.forEach((w, i) => {
    w.onFire((v) => {
      if (done[i]) return;
      done[i] = true;
      values[i] = v;
      if (--remaining === 0) result.fire(values);
    });
  });
  return result;
}

/** Fires with the first input to fire; if several already fired, the lowest index wins. */
export function any<T>(ws: Waitable<T>[], description?: string): Waitable<{ index: number; value: T }> {
  if (ws.length === 0) throw new RangeError('any: needs at least one waitable (an empty any never fires)');
  const result = new LiveSignal<{ index: number; value: T }>(
    () => description ?? `any of [${ws.map((w) => w.description).join(', ')}]`,
  );
  ws.forEach((w, index) => {
    w.onFire((value) => {
      if (!result.fired) result.fire({ index, value });
    });
  });
  return result;
}

/** An already-fired waitable, for fast paths that sometimes have the answer at hand. */
export function fired<T>(value: T): Waitable<T> {
  return {
    description: 'an already available value',
    onFire(cb: (value: T) => void): void {
      cb(value);
    },
  };
}
