// The state walk behind steady-state replay: equal states give equal fingerprints, and any
// difference the rules do not explicitly allow makes them differ (the walk fails safe).
import { describe, expect, it } from 'vitest';
import {
  CANONICAL_STATE,
  sameState,
  STATE_TOKENS,
  stateFingerprint,
  stateRules,
  TokenIds,
  type StateToken,
} from '../../common/state-fingerprint.ts';

class Counter {
  hits = 0;
  seen = 0;
  lastAt = 0;
  label = 'c';
}
stateRules(Counter, { seen: 'ignore', lastAt: 'time' });

class Ring {
  items: (number | undefined)[] = [];
  head = 0;
  [CANONICAL_STATE](): unknown {
    return this.items.slice(this.head);
  }
}

const same = (a: unknown, b: unknown, nowA = 0, nowB = 0) =>
  sameState(stateFingerprint(a, nowA), stateFingerprint(b, nowB));

describe('state fingerprints', () => {
  it('tells apart any field, nested value, Map, Set or typed array that differs', () => {
    const base = () => ({
      a: 1,
      b: 'x',
      c: [1, 2],
      d: new Map([[1, { e: true }]]),
      f: new Set([3]),
      g: new Int32Array([5]),
    });
    expect(same(base(), base())).toBe(true);
    const changes: ((o: ReturnType<typeof base>) => void)[] = [
      (o) => (o.a = 2),
      (o) => (o.b = 'y'),
      (o) => o.c.push(3),
      (o) => (o.d.get(1)!.e = false),
      (o) => o.d.set(2, { e: true }),
      (o) => o.f.add(4),
      (o) => (o.g[0] = 6),
    ];
    for (const change of changes) {
      const o = base();
      change(o);
      expect(same(base(), o)).toBe(false);
    }
    expect(same({ x: NaN }, { x: NaN })).toBe(true);
    expect(same({ x: 0 }, { x: -0 })).toBe(false);
  });

  it('tells sharing apart from two equal copies', () => {
    const shared = { v: 1 };
    const copyA = { v: 1 };
    const copyB = { v: 1 };
    expect(same({ p: shared, q: shared }, { p: copyA, q: copyB })).toBe(false);
    expect(same({ p: shared, q: shared }, { p: copyA, q: copyA })).toBe(true);
    // A cycle ends the walk instead of looping.
    const cyc: { self?: unknown } = {};
    cyc.self = cyc;
    expect(stateFingerprint(cyc, 0).length).toBeGreaterThan(0);
  });

  it("skips only what a class's rules allow, and compares times as distances from now", () => {
    const a = new Counter();
    const b = new Counter();
    b.seen = 99;
    expect(same(a, b)).toBe(true);
    b.hits = 1;
    expect(same(a, b)).toBe(false);
    const early = new Counter();
    early.lastAt = 100;
    const late = new Counter();
    late.lastAt = 600;
    expect(same(early, late, 150, 650)).toBe(true);
    expect(same(early, late, 150, 651)).toBe(false);
    // An unknown class is walked field by field: nothing is ignored by default.
    expect(same({ seen: 1 }, { seen: 2 })).toBe(false);
  });

  it("uses an object's canonical state where it gives one", () => {
    const a = new Ring();
    a.items = [undefined, undefined, 7];
    a.head = 2;
    const b = new Ring();
    b.items = [7];
    expect(same(a, b)).toBe(true);
    b.items = [8];
    expect(same(a, b)).toBe(false);
  });

  it('says where two states differ', () => {
    const paths: string[] = [];
    const tokens = stateFingerprint({ outer: { inner: [1, 2] } }, 0, paths).tokens();
    expect(paths).toHaveLength(tokens.length);
    expect(paths[tokens.lastIndexOf(2)]).toBe('.outer.inner[1]');
  });

  it('keeps tokens apart by type and value, numbers as Object.is does', () => {
    // A number and the string of it, NaN and NaN, 0 and -0, null and undefined, true and 'true'.
    expect(same([1], ['1'])).toBe(false);
    expect(same([NaN], [NaN])).toBe(true);
    expect(same([0], [-0])).toBe(false);
    expect(same([null], [undefined])).toBe(false);
    expect(same([true], ['true'])).toBe(false);
    expect(same([2 ** 53 + 2, 1e-300], [2 ** 53 + 2, 1e-300])).toBe(true);
    expect(same([2 ** 53 + 2], [2 ** 53 + 4])).toBe(false);
    // A capacity that is no whole number still stores every token.
    for (const capacity of [NaN, 0.5, -3])
      expect(sameState(stateFingerprint({ x: 1 }, 0, undefined, { capacity }), stateFingerprint({ y: 2 }, 0))).toBe(
        false,
      );
    // A walk longer than the store's first capacity grows it and still reads back token for token.
    const long = Array.from({ length: 5000 }, (_, i) => (i % 3 === 0 ? `s${i}` : i / 7));
    const print = stateFingerprint(long, 0, undefined, { capacity: 1 });
    expect(print.tokens().slice(2)).toEqual(long);
    expect(same(long, [...long])).toBe(true);
    expect(same(long, [...long.slice(0, -1), 'other'])).toBe(false);
  });

  it('compares only fingerprints whose token ids are the same', () => {
    const a = stateFingerprint({ x: 'a' }, 0, undefined, { ids: new TokenIds() });
    const b = stateFingerprint({ x: 'a' }, 0, undefined, { ids: new TokenIds() });
    expect(() => sameState(a, b)).toThrow(/different token ids/);
  });

  it("takes an object's own tokens as it gives them, and where they end", () => {
    class Emits {
      constructor(readonly items: StateToken[]) {}
      [STATE_TOKENS](push: (t: StateToken) => void): void {
        for (const t of this.items) push(t);
      }
    }
    expect(same(new Emits([1, 'a']), new Emits([1, 'a']))).toBe(true);
    expect(same(new Emits([1, 'a']), new Emits([1, 'b']))).toBe(false);
    // Fields it does not emit are not part of its state.
    const quiet = new Emits([1]);
    (quiet as unknown as { extra: number }).extra = 5;
    expect(same(new Emits([1]), quiet)).toBe(true);
    // Framed: a marker, the class, the tokens, an end marker no token can be.
    const framed = stateFingerprint(new Emits([1, 'a']), 0).tokens();
    expect(framed).toHaveLength(5);
    expect(framed.slice(1, 4)).toEqual(['Emits', 1, 'a']);
    expect(typeof framed[0]).toBe('symbol');
    expect(typeof framed[4]).toBe('symbol');
    // Only values: an object would be compared by identity, equal to itself after it changed.
    const leaky = new Emits([]);
    (leaky as unknown as { items: unknown[] }).items = [{ n: 1 }];
    expect(() => stateFingerprint(leaky, 0)).toThrow(/a state token must be a number, string/);
  });
});
