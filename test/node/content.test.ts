import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Content, expectedFresh, expectedReduction, piecesEqual, type Piece } from '../../sim/node/content.ts';
import { originKey, reduceOrigins, type Origin } from '../../sim/node/origin.ts';
import { sameState, stateFingerprint } from '../../common/state-fingerprint.ts';

// Reference model: a real per-byte array, each byte named by (origin key, offset) of that one byte.
// A byte of a piece with offset o at position i is its origin at o+i; two bytes are the same data
// exactly when their single-byte reduce normalisations agree, which reduceOrigins gives us.
type Byte = { origin: Origin; offset: number } | null;

function byteKey(b: Byte): string {
  return b === null ? '-' : `${originKey(b.origin)}+${b.offset}`;
}

function expand(pieces: readonly Piece[]): Byte[] {
  const out: Byte[] = [];
  for (const p of pieces) {
    for (let i = 0; i < p.length; i++) out.push(p.origin === null ? null : { origin: p.origin, offset: p.offset + i });
  }
  return out;
}

function checkInvariants(c: Content): void {
  const ps = c.pieces();
  let pos = 0;
  for (let k = 0; k < ps.length; k++) {
    const p = ps[k];
    expect(p.start).toBe(pos);
    expect(p.length).toBeGreaterThan(0);
    if (k > 0) {
      const q = ps[k - 1];
      const sameOrigin =
        (q.origin === null && p.origin === null) ||
        (q.origin !== null && p.origin !== null && originKey(q.origin) === originKey(p.origin));
      const mergeable = sameOrigin && (p.origin === null || q.offset + q.length === p.offset);
      expect(mergeable, `pieces ${k - 1} and ${k} should have been merged: ${c.describe()}`).toBe(false);
    }
    pos += p.length;
  }
  expect(pos).toBe(c.size);
}

const SOURCES = ['a', 'b', 'c'];
const OPS = ['sum', 'max'];

type Op =
  | { kind: 'fill'; at: number; len: number; source: string; srcOff: number }
  | { kind: 'copy'; from: number; to: number; len: number }
  | { kind: 'reduceSrc'; at: number; len: number; source: string; srcOff: number; op: string }
  | { kind: 'reduceSelf'; from: number; to: number; len: number; op: string };

function arbOps(size: number): fc.Arbitrary<Op[]> {
  const pos = fc.integer({ min: 0, max: size - 1 });
  const source = fc.constantFrom(...SOURCES);
  const op = fc.constantFrom(...OPS);
  const srcOff = fc.integer({ min: 0, max: 8 });
  const one: fc.Arbitrary<Op> = fc.oneof(
    fc.record({ kind: fc.constant('fill' as const), at: pos, len: pos, source, srcOff }),
    fc.record({ kind: fc.constant('copy' as const), from: pos, to: pos, len: pos }),
    fc.record({ kind: fc.constant('reduceSrc' as const), at: pos, len: pos, source, srcOff, op }),
    fc.record({ kind: fc.constant('reduceSelf' as const), from: pos, to: pos, len: pos, op }),
  );
  return fc.array(one, { maxLength: 25, size: 'max' });
}

const clampLen = (size: number, at: number, len: number) => Math.min(len, size - at);

describe('Content', () => {
  it('starts uninitialised or fresh as one piece', () => {
    const u = Content.uninitialised(100);
    expect(u.pieces()).toEqual([{ start: 0, length: 100, origin: null, offset: 0 }]);
    const f = Content.fresh(100, 'r0.send');
    expect(piecesEqual(f.slice(10, 20), expectedFresh('r0.send', 10, 20))).toBe(true);
    expect(Content.uninitialised(0).pieces()).toEqual([]);
  });

  it('rejects out-of-range and malformed operations', () => {
    const c = Content.fresh(16, 'a');
    expect(() => c.slice(10, 7)).toThrow(RangeError);
    expect(() => c.write(15, expectedFresh('b', 0, 2))).toThrow(RangeError);
    expect(() => c.write(0, [{ start: 1, length: 2, origin: null, offset: 0 }])).toThrow(RangeError);
  });

  it('throws when reducing into or from uninitialised bytes', () => {
    const c = Content.uninitialised(8);
    c.write(0, expectedFresh('a', 0, 4));
    expect(() => c.reduceInto(2, expectedFresh('b', 0, 4), 'sum')).toThrow(/uninitialised/);
    const d = Content.fresh(8, 'a');
    expect(() => d.reduceInto(0, Content.uninitialised(8).slice(0, 8), 'sum')).toThrow(/uninitialised/);
  });

  it('keeps multiplicity: x + x is not x', () => {
    const c = Content.fresh(8, 'x');
    c.reduceInto(0, Content.fresh(8, 'x').slice(0, 8), 'sum');
    expect(piecesEqual(c.slice(0, 8), expectedFresh('x', 0, 8))).toBe(false);
    expect(piecesEqual(c.slice(0, 8), expectedReduction('sum', ['x', 'x'], 0, 8))).toBe(true);
  });

  it('tells ops apart and keeps a nested different-op reduction exact', () => {
    const s = Content.fresh(8, 'a');
    s.reduceInto(0, Content.fresh(8, 'b').slice(0, 8), 'sum');
    const m = Content.fresh(8, 'a');
    m.reduceInto(0, Content.fresh(8, 'b').slice(0, 8), 'max');
    expect(s.equals(m)).toBe(false);
    // max(sum(a,b), c) and max(c, sum(a,b)) agree; max(sum(a,b), c) and sum(max(a,c), b) do not.
    const x = s.clone();
    x.reduceInto(0, Content.fresh(8, 'c').slice(0, 8), 'max');
    const y = Content.fresh(8, 'c');
    y.reduceInto(0, s.slice(0, 8), 'max');
    expect(x.equals(y), `${x.describe()} vs ${y.describe()}`).toBe(true);
    const z = Content.fresh(8, 'a');
    z.reduceInto(0, Content.fresh(8, 'c').slice(0, 8), 'max');
    z.reduceInto(0, Content.fresh(8, 'b').slice(0, 8), 'sum');
    expect(x.equals(z)).toBe(false);
  });

  it('normalises shifted operands so the same bytes compare equal', () => {
    // sum(a[2+i], b[5+i]) built from either side, and from a slice that starts elsewhere.
    const p = reduceOrigins(
      'sum',
      { origin: { kind: 'data', source: 'a' }, offset: 2 },
      { origin: { kind: 'data', source: 'b' }, offset: 5 },
    );
    const q = reduceOrigins(
      'sum',
      { origin: { kind: 'data', source: 'b' }, offset: 5 },
      { origin: { kind: 'data', source: 'a' }, offset: 2 },
    );
    expect(originKey(p.origin)).toBe(originKey(q.origin));
    expect(p.offset).toBe(q.offset);
    const c = Content.fresh(20, 'a');
    c.reduceInto(0, Content.fresh(30, 'b').slice(3, 20), 'sum');
    // Byte i is a[i] + b[i+3]: one piece, because consecutive bytes have consecutive offsets.
    expect(c.pieces()).toHaveLength(1);
  });

  it('describes itself briefly', () => {
    const c = Content.uninitialised(64);
    c.write(16, expectedFresh('r1.send', 0, 16));
    expect(c.describe()).toContain('r1.send');
    expect(c.describe()).toContain('uninitialised');
  });

  it('is the same state in a fingerprint exactly when it holds the same data', () => {
    // Random histories of writes and reductions: two contents fingerprint alike iff `equals` says
    // they hold the same data, origins compared by value (the two histories build their own
    // origin objects).
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 32 }).chain((size) => fc.tuple(fc.constant(size), arbOps(size), arbOps(size))),
        ([size, a, b]) => {
          const x = Content.fresh(size, 'src');
          const y = Content.fresh(size, 'src');
          applyOps(x, a);
          applyOps(y, b);
          expect(sameState(stateFingerprint(x, 0), stateFingerprint(y, 0))).toBe(x.equals(y));
          const again = Content.fresh(size, 'src');
          applyOps(again, a);
          expect(sameState(stateFingerprint(x, 0), stateFingerprint(again, 0))).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
    // Uninitialised bytes, and where they are, count.
    const fresh = Content.fresh(8, 'src');
    expect(sameState(stateFingerprint(fresh, 0), stateFingerprint(Content.uninitialised(8), 0))).toBe(false);
    const half = Content.uninitialised(8);
    half.write(0, expectedFresh('src', 0, 4));
    const otherHalf = Content.uninitialised(8);
    otherHalf.write(4, expectedFresh('src', 4, 4));
    expect(sameState(stateFingerprint(half, 0), stateFingerprint(otherHalf, 0))).toBe(false);
    // Each part of a piece counts: where its bytes start in the source, the source, the operation.
    const holding = (pieces: Piece[]) => {
      const c = Content.uninitialised(8);
      c.write(0, pieces);
      return stateFingerprint(c, 0);
    };
    const base = holding(expectedFresh('a', 0, 8));
    expect(sameState(base, holding(expectedFresh('a', 0, 8)))).toBe(true);
    expect(sameState(base, holding(expectedFresh('a', 1, 8)))).toBe(false);
    expect(sameState(base, holding(expectedFresh('b', 0, 8)))).toBe(false);
    const sum = holding(expectedReduction('sum', ['a', 'b'], 0, 8));
    expect(sameState(sum, holding(expectedReduction('sum', ['b', 'a'], 0, 8)))).toBe(true);
    expect(sameState(sum, holding(expectedReduction('max', ['a', 'b'], 0, 8)))).toBe(false);
    // A source named as a reduction's key is still data, not that reduction.
    const key = originKey(expectedReduction('sum', ['a', 'b'], 0, 8)[0].origin!);
    expect(sameState(sum, holding(expectedFresh(key, 0, 8)))).toBe(false);
  });

  it('slice after write returns what was written', () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: 1, max: 64 })
          .chain((size) =>
            fc.tuple(
              fc.constant(size),
              arbOps(size),
              fc.integer({ min: 0, max: size - 1 }),
              fc.integer({ min: 0, max: size - 1 }),
              fc.integer({ min: 1, max: size }),
            ),
          ),
        ([size, ops, srcAt, dstAt, len]) => {
          const src = Content.fresh(size, 'src');
          applyOps(src, ops);
          const l = Math.min(len, size - srcAt, size - dstAt);
          const written = src.slice(srcAt, l);
          const dst = Content.uninitialised(size);
          dst.write(dstAt, written);
          expect(piecesEqual(dst.slice(dstAt, l), written), dst.describe()).toBe(true);
          expect(expand(dst.slice(dstAt, l)).map(byteKey)).toEqual(expand(written).map(byteKey));
          checkInvariants(dst);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('writes and reductions compose like a per-byte array', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }).chain((size) => fc.tuple(fc.constant(size), arbOps(size), fc.boolean())),
        ([size, ops, startFresh]) => {
          const c = startFresh ? Content.fresh(size, 'init') : Content.uninitialised(size);
          let model: Byte[] = startFresh
            ? Array.from({ length: size }, (_, i) => ({ origin: { kind: 'data', source: 'init' }, offset: i }))
            : Array.from({ length: size }, () => null);
          for (const op of ops) {
            const before = model.slice();
            let threw = false;
            try {
              applyOp(c, op);
            } catch {
              threw = true;
            }
            const r = applyModel(model, op);
            expect(threw, `op ${JSON.stringify(op)} on ${c.describe()}`).toBe(r === 'error');
            if (r === 'error') {
              model = before;
              // A failed reduction must leave the buffer untouched.
              expect(expand(c.pieces()).map(byteKey)).toEqual(model.map(byteKey));
            } else {
              model = r;
            }
            checkInvariants(c);
            expect(expand(c.pieces()).map(byteKey)).toEqual(model.map(byteKey));
          }
        },
      ),
      { numRuns: 400 },
    );
  });

  it('reduction order does not matter', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 8 }).chain((n) =>
          fc.tuple(
            fc.constant(n),
            fc.shuffledSubarray(
              Array.from({ length: n }, (_, i) => i),
              { minLength: n, maxLength: n },
            ),
            fc.constantFrom('sum', 'max', 'prod', 'band'),
            fc.integer({ min: 1, max: 9 }),
          ),
        ),
        ([n, order, op, chunks]) => {
          const size = 90;
          const names = Array.from({ length: n }, (_, i) => `r${i}.send`);
          const reduceInOrder = (seq: number[]) => {
            const c = Content.fresh(size, names[seq[0]]);
            // Reduce chunk by chunk, like a pipelined algorithm, to exercise piece splitting too.
            const chunk = Math.ceil(size / chunks);
            for (const r of seq.slice(1)) {
              for (let at = 0; at < size; at += chunk) {
                const len = Math.min(chunk, size - at);
                c.reduceInto(at, Content.fresh(size, names[r]).slice(at, len), op);
              }
            }
            return c;
          };
          const ascending = reduceInOrder(names.map((_, i) => i));
          const shuffled = reduceInOrder(order);
          expect(shuffled.equals(ascending), `${shuffled.describe()} vs ${ascending.describe()}`).toBe(true);
          expect(piecesEqual(shuffled.slice(0, size), expectedReduction(op, names, 0, size))).toBe(true);
          expect(shuffled.pieces()).toHaveLength(1);
        },
      ),
      { numRuns: 200 },
    );
  });
});

function applyOps(c: Content, ops: Op[]): void {
  for (const op of ops) {
    try {
      applyOp(c, op);
    } catch {
      // Reductions over uninitialised bytes are rejected; the sequence goes on.
    }
  }
}

function applyOp(c: Content, op: Op): void {
  const size = c.size;
  switch (op.kind) {
    case 'fill': {
      const len = clampLen(size, op.at, op.len);
      c.write(op.at, Content.fresh(op.srcOff + len, op.source).slice(op.srcOff, len));
      return;
    }
    case 'copy': {
      const len = Math.min(op.len, size - op.from, size - op.to);
      c.write(op.to, c.slice(op.from, len));
      return;
    }
    case 'reduceSrc': {
      const len = clampLen(size, op.at, op.len);
      c.reduceInto(op.at, Content.fresh(op.srcOff + len, op.source).slice(op.srcOff, len), op.op);
      return;
    }
    case 'reduceSelf': {
      const len = Math.min(op.len, size - op.from, size - op.to);
      c.reduceInto(op.to, c.slice(op.from, len), op.op);
      return;
    }
  }
}

function applyModel(model: Byte[], op: Op): Byte[] | 'error' {
  const size = model.length;
  const out = model.slice();
  const data = (source: string, offset: number): Byte => ({ origin: { kind: 'data', source }, offset });
  const reduce = (x: Byte, y: Byte, o: string): Byte | 'error' => {
    if (x === null || y === null) return 'error';
    return reduceOrigins(o, x, y);
  };
  switch (op.kind) {
    case 'fill': {
      const len = clampLen(size, op.at, op.len);
      for (let i = 0; i < len; i++) out[op.at + i] = data(op.source, op.srcOff + i);
      return out;
    }
    case 'copy': {
      const len = Math.min(op.len, size - op.from, size - op.to);
      for (let i = 0; i < len; i++) out[op.to + i] = model[op.from + i];
      return out;
    }
    case 'reduceSrc': {
      const len = clampLen(size, op.at, op.len);
      for (let i = 0; i < len; i++) {
        const r = reduce(model[op.at + i], data(op.source, op.srcOff + i), op.op);
        if (r === 'error') return r;
        out[op.at + i] = r;
      }
      return out;
    }
    case 'reduceSelf': {
      const len = Math.min(op.len, size - op.from, size - op.to);
      for (let i = 0; i < len; i++) {
        const r = reduce(model[op.to + i], model[op.from + i], op.op);
        if (r === 'error') return r;
        out[op.to + i] = r;
      }
      return out;
    }
  }
}
