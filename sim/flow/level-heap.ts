// The resources still filling, ordered by the level at which each would saturate. Progressive
// filling asks for the lowest level every round, and a round changes the levels of only the
// resources its frozen flows cross: a heap keeps that at O(log n) per changed resource instead of
// rescanning every resource each round. Its arrays are reused from one solve to the next.

export class LevelHeap {
  /** Resource indices, heap-ordered by `key`. */
  private items = new Int32Array(16);
  /** Per resource, its place in `items`, or -1 when absent. */
  private place = new Int32Array(16).fill(-1);
  private count = 0;
  private key: Float64Array = new Float64Array(0);

  get size(): number {
    return this.count;
  }

  /** Empties the heap for resources 0..n-1 whose levels are read from `key` (owned by the caller). */
  reset(n: number, key: Float64Array): void {
    if (this.place.length < n) {
      const size = Math.max(n, 2 * this.place.length);
      this.items = new Int32Array(size);
      this.place = new Int32Array(size).fill(-1);
    } else {
      for (let i = 0; i < this.count; i++) this.place[this.items[i]] = -1;
    }
    this.count = 0;
    this.key = key;
  }

  /** The resource with the lowest level; the heap must not be empty. */
  top(): number {
    return this.items[0];
  }

  has(r: number): boolean {
    return this.place[r] >= 0;
  }

  push(r: number): void {
    const i = this.count++;
    this.items[i] = r;
    this.place[r] = i;
    this.up(i);
  }

  pop(): number {
    const r = this.items[0];
    this.removeAt(0);
    return r;
  }

  remove(r: number): void {
    const i = this.place[r];
    if (i >= 0) this.removeAt(i);
  }

  /** `key[r]` changed: restore the order around it. */
  update(r: number): void {
    const i = this.place[r];
    if (i >= 0) this.down(this.up(i));
  }

  private removeAt(i: number): void {
    const r = this.items[i];
    this.place[r] = -1;
    const last = this.items[--this.count];
    if (i === this.count) return;
    this.items[i] = last;
    this.place[last] = i;
    this.down(this.up(i));
  }

  private up(i: number): number {
    const { items, place, key } = this;
    const r = items[i];
    const k = key[r];
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const p = items[parent];
      if (!(key[p] > k)) break;
      items[i] = p;
      place[p] = i;
      i = parent;
    }
    items[i] = r;
    place[r] = i;
    return i;
  }

  private down(i: number): number {
    const { items, place, key } = this;
    const n = this.count;
    const r = items[i];
    const k = key[r];
    for (;;) {
      let child = 2 * i + 1;
      if (child >= n) break;
      if (child + 1 < n && key[items[child + 1]] < key[items[child]]) child++;
      const c = items[child];
      if (!(key[c] < k)) break;
      items[i] = c;
      place[c] = i;
      i = child;
    }
    items[i] = r;
    place[r] = i;
    return i;
  }
}
