// Answers kept per ordered pair of keys (a route between two vertices, its latency, its link
// resources): a map of maps, so that a lookup on a copy's planning builds no key string.
import { lazily } from './run-state.ts';

export class PairTable<K, V> {
  private readonly rows = new Map<K, Map<K, V>>();

  get(a: K, b: K): V | undefined {
    return this.rows.get(a)?.get(b);
  }

  /** Keeps `value` for (a, b) and returns it. */
  set(a: K, b: K, value: V): V {
    lazily(this.rows, a, () => new Map<K, V>()).set(b, value);
    return value;
  }
}
