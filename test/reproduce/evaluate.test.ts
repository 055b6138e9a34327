import { describe, expect, it } from 'vitest';
import type { Claim, Measure, Published, Tolerance } from '../../scenarios/reproduce/claim.ts';
import { evaluateClaim } from '../../scenarios/reproduce/evaluate.ts';
import { parseMissing } from '../../scenarios/reproduce/missing-figures.ts';
import { runClaims } from '../../scenarios/reproduce/run-claims.ts';
import { formatClaimsJson, formatClaimsMarkdown, formatClaimsTable } from '../../scenarios/reproduce/claims-table.ts';
import type { RunResult } from '../../scenarios/reproduce/run-result.ts';
import { InputError } from '../../scenarios/reproduce/scenario-adapter.ts';
import { KiB, MiB, syntheticRun } from './fixtures.ts';

function claim(measure: Measure, published: Published, tolerance?: Tolerance, extra: Partial<Claim> = {}): Claim {
  return {
    id: 'c',
    seed: '000_x.txt',
    source: 'Fig. 1',
    statement: 's',
    scenario: '/s.yaml',
    measure,
    published,
    publishedText: '',
    ...(tolerance ? { tolerance } : {}),
    toleranceText: '',
    input: false,
    expect: 'pass',
    fast: false,
    where: { file: '/claims.yaml', line: 7 },
    ...extra,
  };
}
const value = (v: number): Published => ({ kind: 'interval', lo: v, hi: v });
const abs = (v: number): Tolerance => ({ kind: 'absolute', value: v });
const sizes = [16 * KiB, 64 * KiB, 256 * KiB, 1 * MiB];
const run = syntheticRun(sizes, { base: [10, 10, 10, 10], a: [12, 9, 5, 6], b: [8, 8, 8, 8] });

describe('measures', () => {
  it('ratio at one size and the minimum over a range', () => {
    expect(
      evaluateClaim(
        claim({ kind: 'ratio', of: 'a', to: 'base', at: 64 * KiB, reduce: 'min' }, value(0.9), abs(0.01)),
        run,
      ),
    ).toMatchObject({ status: 'PASS', value: 0.9 });
    const best = evaluateClaim(
      claim(
        { kind: 'ratio', of: 'a', to: 'base', over: { from: 16 * KiB, to: 1 * MiB }, reduce: 'min' },
        value(0.6),
        abs(0.05),
      ),
      run,
    );
    expect(best).toMatchObject({ status: 'FAIL', value: 0.5, simulated: '0.50 at 256KiB' });
  });

  it('ratio range holds only if every size of the range is inside', () => {
    const m: Measure = { kind: 'ratio-range', of: 'a', to: 'base', over: { from: 64 * KiB, to: 1 * MiB } };
    expect(evaluateClaim(claim(m, { kind: 'interval', lo: 0.5, hi: 0.9 }, abs(0)), run)).toMatchObject({
      status: 'PASS',
      simulated: '0.50–0.90',
    });
    // 16 KiB (1.2) lies outside: widening the range to it makes the claim fail.
    const whole = evaluateClaim(
      claim({ ...m, over: { from: 16 * KiB, to: 1 * MiB } }, { kind: 'interval', lo: 0.5, hi: 0.9 }, abs(0.05)),
      run,
    );
    expect(whole.status).toBe('FAIL');
  });

  it('a range the scenario does not reach end to end is an error at the claim', () => {
    const m: Measure = { kind: 'ratio-range', of: 'a', to: 'base', over: { from: 16 * KiB, to: 4 * MiB } };
    const e = (() => {
      try {
        evaluateClaim(claim(m, value(1), abs(1)), run);
      } catch (err) {
        return err;
      }
    })();
    expect(e).toBeInstanceOf(InputError);
    expect((e as InputError).location).toMatchObject({ file: '/claims.yaml', line: 7 });
    expect((e as InputError).detail).toContain('do not reach both ends');
  });

  it('ordering with a margin reports the worst size', () => {
    const m: Measure = { kind: 'ordering', faster: 'b', than: ['base', 'a'], over: { from: 16 * KiB, to: 64 * KiB } };
    expect(evaluateClaim(claim(m, { kind: 'none' }, { kind: 'relative', value: 0 }), run)).toMatchObject({
      status: 'PASS',
      simulated: 'holds: worst 0.89x at 64KiB',
    });
    const wide = evaluateClaim(
      claim({ ...m, over: { from: 16 * KiB, to: 256 * KiB } }, { kind: 'none' }, { kind: 'relative', value: 0.5 }),
      run,
    );
    expect(wide).toMatchObject({ status: 'FAIL', value: 1.6 });
  });

  it('crossover: the size from which the winner stays ahead, within a factor', () => {
    const m: Measure = { kind: 'crossover', winner: 'a', loser: 'base', over: { from: 16 * KiB, to: 1 * MiB } };
    expect(evaluateClaim(claim(m, value(32 * KiB), { kind: 'factor', value: 2 }), run)).toMatchObject({
      status: 'PASS',
      value: 64 * KiB,
    });
    expect(evaluateClaim(claim(m, value(256 * KiB), { kind: 'factor', value: 2 }), run).status).toBe('FAIL');
    const never = evaluateClaim(
      claim({ ...m, winner: 'base', loser: 'b' }, value(16 * KiB), { kind: 'factor', value: 2 }),
      run,
    );
    expect(never).toMatchObject({ status: 'FAIL', simulated: 'base never ahead' });
  });

  it('best parameter, with ties inside the margin', () => {
    const m: Measure = { kind: 'best-param', among: ['a', 'b'], over: { from: 16 * KiB, to: 1 * MiB } };
    expect(
      evaluateClaim(claim(m, { kind: 'labels', labels: ['a'] }, { kind: 'relative', value: 0 }), run),
    ).toMatchObject({ status: 'FAIL', simulated: 'b ×2, a ×2' });
    expect(
      evaluateClaim(claim(m, { kind: 'labels', labels: ['a'] }, { kind: 'relative', value: 0.5 }), run).status,
    ).toBe('PASS');
    expect(
      evaluateClaim(claim(m, { kind: 'labels', labels: ['a'] }, { kind: 'relative', value: 0.4 }), run).status,
    ).toBe('FAIL');
  });

  it('spread, share and difference', () => {
    const spread = evaluateClaim(
      claim(
        { kind: 'spread', among: ['a', 'b'], over: { from: 16 * KiB, to: 1 * MiB } },
        { kind: 'interval', lo: -Infinity, hi: 1.25 },
        abs(0.1),
      ),
      run,
    );
    expect(spread).toMatchObject({ status: 'FAIL', value: 1.6 });
    const share = evaluateClaim(
      claim(
        { kind: 'share', of: 'a', category: ['syscall'], at: 16 * KiB, reduce: 'min' },
        { kind: 'interval', lo: 0.2, hi: 0.3 },
        abs(0),
      ),
      run,
    );
    expect(share).toMatchObject({ status: 'PASS', value: 0.25 });
    const both = evaluateClaim(
      claim(
        { kind: 'share', of: 'a', category: ['copy', 'syscall'], at: 16 * KiB, reduce: 'min' },
        value(1),
        abs(0.001),
      ),
      run,
    );
    expect(both).toMatchObject({ status: 'PASS', value: 1 });
    const diff = evaluateClaim(claim({ kind: 'difference', of: 'a', to: 'b', at: 16 * KiB }, value(4), abs(0)), run);
    expect(diff).toMatchObject({ status: 'PASS', value: 4 });
  });

  it('ratio-gap: the reduced ratio of a second scenario minus this one, on the same table', () => {
    const m: Measure = {
      kind: 'ratio-gap',
      of: 'a',
      to: 'base',
      over: { from: 16 * KiB, to: 1 * MiB },
      reduce: 'min',
      against: '/other.yaml',
    };
    // Here a gains down to 0.5 of base; there only down to 0.8: a gap of 0.3.
    const other = syntheticRun(sizes, { base: [10, 10, 10, 10], a: [9, 8, 9, 10], b: [1, 1, 1, 1] });
    expect(evaluateClaim(claim(m, value(0.3), abs(0.01)), run, other)).toMatchObject({
      status: 'PASS',
      simulated: '0.30 (0.80 in other.yaml − 0.50)',
    });
    expect(evaluateClaim(claim(m, { kind: 'interval', lo: -Infinity, hi: 0 }, abs(0.1)), run, other).status).toBe(
      'FAIL',
    );
    expect(() => evaluateClaim(claim(m, value(0.3), abs(0.01)), run)).toThrow('other.yaml');
  });

  it('growth with the rank count across the tables of a ranks sweep', () => {
    const sweep: RunResult = {
      baseline: 'x',
      labels: ['x', 'y'],
      tables: [2, 4, 8].map((n) => ({
        machine: 'm',
        ranks: n,
        rows: [
          {
            bytes: MiB,
            cells: {
              x: { meanNs: 100, breakdown: {}, rankTimeNs: 100 * n, libraryBytes: 0 },
              y: { meanNs: 50 * n, breakdown: {}, rankTimeNs: 50 * n * n, libraryBytes: 4096 * n * n },
            },
          },
        ],
      })),
    };
    expect(
      evaluateClaim(claim({ kind: 'growth', of: 'x', quantity: 'time', at: MiB }, value(0), abs(0.01)), sweep),
    ).toMatchObject({
      status: 'PASS',
      value: 0,
    });
    expect(
      evaluateClaim(claim({ kind: 'growth', of: 'y', quantity: 'time', at: MiB }, value(1), abs(0.01)), sweep),
    ).toMatchObject({
      status: 'PASS',
      value: 1,
    });
    expect(
      evaluateClaim(claim({ kind: 'growth', of: 'y', quantity: 'time', at: MiB }, value(0), abs(0.5)), sweep).status,
    ).toBe('FAIL');
    // The library's memory: y's grows as N squared; x allocates none, which has no rate of growth.
    const memoryOf = (of: string) => claim({ kind: 'growth', of, quantity: 'memory', at: MiB }, value(2), abs(0.01));
    expect(evaluateClaim(memoryOf('y'), sweep)).toMatchObject({
      status: 'PASS',
      value: 2,
      simulated: '2.00 (2→8 ranks)',
    });
    expect(evaluateClaim(memoryOf('x'), sweep)).toMatchObject({
      status: 'FAIL',
      simulated: 'none allocated (2→8 ranks)',
    });
    // The most memory in any table: none for x at every rank count; y's at 8 ranks.
    expect(evaluateClaim(claim({ kind: 'memory', of: 'x', at: MiB }, value(0), abs(0)), sweep)).toMatchObject({
      status: 'PASS',
      value: 0,
      simulated: '0 B (8 ranks)',
    });
    expect(evaluateClaim(claim({ kind: 'memory', of: 'y', at: MiB }, value(0), abs(0)), sweep)).toMatchObject({
      status: 'FAIL',
      value: 4096 * 64,
      simulated: '256 KiB (8 ranks)',
    });
  });

  it('growth of the library memory with the message size, in one table', () => {
    const table: RunResult = {
      baseline: 'x',
      labels: ['x'],
      tables: [
        {
          machine: 'm',
          ranks: 4,
          rows: [64 * KiB, 256 * KiB, MiB].map((bytes) => ({
            bytes,
            cells: { x: { meanNs: 1, breakdown: {}, rankTimeNs: 4, libraryBytes: 3 * bytes } },
          })),
        },
      ],
    };
    const over = (from: number, to: number) =>
      claim({ kind: 'growth', of: 'x', quantity: 'memory', over: { from, to } }, value(1), abs(0.01));
    expect(evaluateClaim(over(64 * KiB, MiB), table)).toMatchObject({
      status: 'PASS',
      value: 1,
      simulated: '1.00 (64KiB→1MiB)',
    });
    // The span is checked end to end: a size the table lacks is an error in the claim.
    expect(() => evaluateClaim(over(64 * KiB, 4 * MiB), table)).toThrow(/4MiB/);
  });

  it('an input claim is shown but never counted, and an unsupported one fails', () => {
    const input = evaluateClaim(
      claim({ kind: 'ratio', of: 'a', to: 'base', at: 64 * KiB, reduce: 'min' }, value(0.9), abs(0.01), {
        input: true,
      }),
      run,
    );
    expect(input).toMatchObject({ status: 'INPUT', holds: true, simulated: '0.90' });
    expect(evaluateClaim(claim({ kind: 'unsupported' }, { kind: 'none' }), run)).toMatchObject({
      status: 'FAIL',
      simulated: 'not expressible',
    });
  });

  it('names the labels the scenario has when a claim names another', () => {
    expect(() =>
      evaluateClaim(claim({ kind: 'ratio', of: 'zz', to: 'base', at: 64 * KiB, reduce: 'min' }, value(1), abs(1)), run),
    ).toThrow(/no algorithm labelled 'zz'; labels: base, a, b/);
  });
});

describe("the figures of a 'missing' text", () => {
  const parts = (text: string) => parseMissing(text, (d) => new Error(d));
  const failing = (missing: string) =>
    claim({ kind: 'ratio', of: 'a', to: 'base', at: 64 * KiB, reduce: 'min' }, value(0.5), abs(0.01), {
      expect: 'fail',
      missing,
      missingParts: parts(missing),
    });

  it("are computed from the claim's table: a ratio at a size, lowest-highest over a span, a mean in us", () => {
    const text =
      'a takes {{ratio a/base at 64KiB}} of base ({{ratio a/base over 16KiB..1MiB}} in all; b {{mean b at 1MiB}})';
    expect(evaluateClaim(failing(text), run).missing).toBe('a takes 0.90 of base (0.50-1.20 in all; b 0.008 us)');
    // A step: the kind's share of the call's rank-time (4 ranks of 8 ns, 3/4 of it copying).
    expect(evaluateClaim(failing('b copies for {{step copy of b at 1MiB}} a call'), run).missing).toBe(
      'b copies for 0.024 us a call',
    );
    // A text without figures is shown as written.
    expect(evaluateClaim(failing('no figure here'), run).missing).toBe('no figure here');
  });

  it('print times as the texts quote them: three figures below 100 us, whole us to 1 ms, then ms', () => {
    const times = syntheticRun([MiB], { base: [1], a: [37_149], b: [123_456], c: [1_677_400] });
    const c = failing('{{mean a at 1MiB}}, {{mean b at 1MiB}}, {{mean c at 1MiB}}');
    expect(evaluateClaim({ ...c, measure: { ...c.measure, at: MiB } } as typeof c, times).missing).toBe(
      '37.1 us, 123 us, 1.68 ms',
    );
  });

  it('are what the text table, the markdown table and the JSON print, never the raw references', async () => {
    const c = failing('a takes {{ratio a/base at 64KiB}} of base');
    const suite = await runClaims(
      [c],
      async () => run,
      () => 0,
    );
    for (const out of [formatClaimsTable(suite), formatClaimsMarkdown(suite), formatClaimsJson(suite)]) {
      expect(out).toContain('a takes 0.90 of base');
      expect(out).not.toContain('{{');
    }
  });

  it("point at the claim's missing text when the table lacks a label or a size", () => {
    for (const [text, said] of [
      ['{{ratio c/base at 64KiB}}', "no algorithm labelled 'c'"],
      ['{{mean a at 32KiB}}', 'no size 32KiB'],
      ['{{ratio a/base over 16KiB..4MiB}}', 'do not reach both ends'],
      ['{{step pin of a at 64KiB}}', "a spends no time in 'pin' steps; its kinds: copy, syscall"],
      ['{{step copy of c at 64KiB}}', "no algorithm labelled 'c'"],
    ]) {
      let error: unknown;
      try {
        evaluateClaim(failing(text), run);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(InputError);
      expect((error as InputError).detail).toContain(said);
      expect((error as InputError).location).toMatchObject({ file: '/claims.yaml', line: 7, field: 'missing' });
    }
    // Loaded from a file, the claim knows the line of its missing text.
    const at = { file: '/claims.yaml', line: 12, field: 'claims[0].missing' };
    const located = { ...failing('{{mean c at 64KiB}}'), missingWhere: at };
    let error: unknown;
    try {
      evaluateClaim(located, run);
    } catch (e) {
      error = e;
    }
    expect((error as InputError).location).toMatchObject(at);
  });
});
