import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadClaimsFile, loadClaimsText } from '../../scenarios/reproduce/claims-loader.ts';
import { inputErrorOf } from '../helpers/input-error.ts';
import { papersDir } from './fixtures.ts';

const head = 'seed: 000_x.txt\ntitle: A paper\nclaims:\n';
const claim = (body: string): string =>
  `${head}  - id: c1\n    source: Fig. 1\n    statement: A is faster\n    scenario: s.yaml\n${body}`;

function load(text: string) {
  const dir = papersDir(text);
  return loadClaimsFile(join(dir, '000', 'claims.yaml'));
}

describe('claims loader', () => {
  it('reads a ratio claim with its published value, tolerance, and flags', () => {
    const paper = load(
      claim(
        '    measure: { kind: ratio, of: a, to: b, over: 16KiB..4MiB, reduce: min }\n    published: 0.54\n    tolerance: 0.1\n    expect: pass\n    fast: true\n',
      ),
    );
    const [c] = paper.claims;
    expect(c.measure).toEqual({
      kind: 'ratio',
      of: 'a',
      to: 'b',
      over: { from: 16384, to: 4 * 1048576 },
      reduce: 'min',
    });
    expect(c.published).toEqual({ kind: 'interval', lo: 0.54, hi: 0.54 });
    expect(c.tolerance).toEqual({ kind: 'absolute', value: 0.1 });
    expect(c.fast).toBe(true);
    expect(c.input).toBe(false);
    expect(c.where.line).toBe(4);
    expect(c.scenario?.endsWith('/000/s.yaml')).toBe(true);
  });

  it('reads intervals, bounds, crossover sizes, best-param labels and their tolerance forms', () => {
    const text = `${head}${[
      ['ratio-range', '{ kind: ratio-range, of: a, to: b, over: 1KiB..1MiB }', '[0.6, 0.7]', '0.1'],
      ['bound', '{ kind: ratio, of: a, to: b, at: 1MiB }', '{ atLeast: 10 }', '5'],
      ['cross', '{ kind: crossover, winner: a, loser: b, over: 1KiB..1MiB }', '32KiB', 'x2'],
      ['best', '{ kind: best-param, among: [a, b], at: 1MiB }', '[a]', '5%'],
    ]
      .map(
        ([id, m, p, t]) =>
          `  - { id: ${id}, source: s, statement: st, scenario: s.yaml, measure: ${m}, published: ${p}, tolerance: ${t}, expect: pass }\n`,
      )
      .join('')}`;
    const c = load(text).claims;
    expect(c[0].published).toEqual({ kind: 'interval', lo: 0.6, hi: 0.7 });
    expect(c[1].published).toEqual({ kind: 'interval', lo: 10, hi: Infinity });
    expect(c[2].published).toEqual({ kind: 'interval', lo: 32768, hi: 32768 });
    expect(c[2].tolerance).toEqual({ kind: 'factor', value: 2 });
    expect(c[3].published).toEqual({ kind: 'labels', labels: ['a'] });
    expect(c[3].tolerance).toEqual({ kind: 'relative', value: 0.05 });
  });

  it('reads growth of time or of the library memory, over ranks or over sizes, and memory', () => {
    const text = `${head}${[
      ['time', '{ kind: growth, of: a, at: 1MiB }', '1'],
      ['ranks', '{ kind: growth, of: a, quantity: memory, at: 1MiB }', '2'],
      ['sizes', '{ kind: growth, of: a, quantity: memory, over: 64KiB..1MiB }', '1'],
      ['none', '{ kind: memory, of: a, at: 1MiB }', '0'],
    ]
      .map(
        ([id, m, p]) =>
          `  - { id: ${id}, source: s, statement: st, scenario: s.yaml, measure: ${m}, published: ${p}, tolerance: 0.5, expect: pass }\n`,
      )
      .join('')}`;
    expect(load(text).claims.map((c) => c.measure)).toEqual([
      { kind: 'growth', of: 'a', quantity: 'time', at: 1048576 },
      { kind: 'growth', of: 'a', quantity: 'memory', at: 1048576 },
      { kind: 'growth', of: 'a', quantity: 'memory', over: { from: 65536, to: 1048576 } },
      { kind: 'memory', of: 'a', at: 1048576 },
    ]);
    const fails = (measure: string) =>
      inputErrorOf(() =>
        load(claim(`    measure: ${measure}\n    published: 1\n    tolerance: 0.5\n    expect: pass\n`)),
      );
    expect(fails('{ kind: growth, of: a, quantity: bytes, at: 1MiB }')).toMatchObject({
      detail: "quantity must be 'time' or 'memory', got 'bytes'",
      location: { field: 'claims[0].measure.quantity' },
    });
    expect(fails('{ kind: growth, of: a, over: 64KiB..1MiB }').detail).toContain("takes 'quantity: memory'");
    expect(fails('{ kind: growth, of: a }').detail).toContain("exactly one of 'at' (one size) and 'over'");
    expect(fails('{ kind: memory, of: a }').detail).toBe("a memory measure needs 'at'");
  });

  it('names file, line and field of a misspelt measure kind, with a suggestion', () => {
    const dir = papersDir(
      claim(
        '    measure: { kind: ration, of: a, to: b, at: 1MiB }\n    published: 1\n    tolerance: 0.1\n    expect: pass\n',
      ),
    );
    const file = join(dir, '000', 'claims.yaml');
    const e = inputErrorOf(() => loadClaimsFile(file));
    expect(e.location).toMatchObject({ file, line: 8, field: 'claims[0].measure.kind' });
    expect(e.detail).toContain("did you mean 'ratio'?");
  });

  it('rejects a tolerance of the wrong form for the measure', () => {
    const e = inputErrorOf(() =>
      load(
        claim(
          '    measure: { kind: crossover, winner: a, loser: b, over: 1KiB..1MiB }\n    published: 32KiB\n    tolerance: 0.1\n    expect: pass\n',
        ),
      ),
    );
    expect(e.location).toMatchObject({ line: 10, field: 'claims[0].tolerance' });
    expect(e.detail).toContain("a factor such as 'x2'");
  });

  it('requires a tolerance, and a missing mechanism on a claim expected to fail', () => {
    expect(
      inputErrorOf(() =>
        load(claim('    measure: { kind: ratio, of: a, to: b, at: 1MiB }\n    published: 1\n    expect: pass\n')),
      ).detail,
    ).toContain("needs 'tolerance'");
    const e = inputErrorOf(() =>
      load(
        claim(
          '    measure: { kind: ratio, of: a, to: b, at: 1MiB }\n    published: 1\n    tolerance: 0.1\n    expect: fail\n',
        ),
      ),
    );
    expect(e.detail).toContain("needs 'missing'");
    expect(e.location.field).toBe('claims[0].expect');
    const stale = inputErrorOf(() =>
      load(
        claim(
          '    measure: { kind: ratio, of: a, to: b, at: 1MiB }\n    published: 1\n    tolerance: 0.1\n    expect: pass\n    missing: "an old reason"\n',
        ),
      ),
    );
    expect(stale.detail).toContain("expected to pass has no 'missing'");
    expect(stale.location).toMatchObject({ line: 12, field: 'claims[0].missing' });
  });

  it("reads the figures of a 'missing' text, and refuses one it cannot compute at its line", () => {
    const failing = (missing: string, measure = '{ kind: ratio, of: a, to: b, at: 1MiB }') =>
      claim(
        `    measure: ${measure}\n    published: 1\n    tolerance: 0.1\n    expect: fail\n    missing: "${missing}"\n`,
      );
    const [c] = load(
      failing(
        'a takes {{ratio a/b at 64KiB}} of b, {{ratio a/b over 16KiB..1MiB}} in all; {{mean b at 1MiB}}, {{step pin of b at 1MiB}} pinning',
      ),
    ).claims;
    expect(c.missingParts).toEqual([
      'a takes ',
      { kind: 'ratio', of: 'a', to: 'b', at: 65536 },
      ' of b, ',
      { kind: 'ratio', of: 'a', to: 'b', over: { from: 16384, to: 1048576 } },
      ' in all; ',
      { kind: 'mean', of: 'b', at: 1048576 },
      ', ',
      { kind: 'step', step: 'pin', of: 'b', at: 1048576 },
      ' pinning',
    ]);
    expect(c.missingWhere).toMatchObject({ line: 12, field: 'claims[0].missing' });
    // Spaces inside the braces are the writer's own.
    expect(load(failing('{{ ratio a/b at 1MiB }}')).claims[0].missingParts).toEqual([
      { kind: 'ratio', of: 'a', to: 'b', at: 1048576 },
    ]);
    for (const [text, said] of [
      ['{{median a at 1MiB}}', 'is not one the report computes'],
      ['{{ratio a at 1MiB}}', 'a ratio names two labels'],
      ['{{ratio a/b at lots}}', "'lots' is not a size"],
      ['{{ratio a/b over 4MiB..1MiB}}', 'is empty'],
      ['{{ratio a/b near 1MiB}}', "expected 'at SIZE' or 'over FROM..TO'"],
      ['a {{ratio a/b at 1MiB', 'an unclosed or empty figure'],
      ['{{ratio a/b over 1MiB..2MiB..4MiB}}', "expected 'at SIZE' or 'over FROM..TO'"],
      ['{{step pin at 1MiB}}', 'is not one the report computes'],
      ['{{step pin of b at lots}}', "'lots' is not a size"],
    ]) {
      const e = inputErrorOf(() => load(failing(text)));
      expect(e.detail).toContain(said);
      expect(e.location).toMatchObject({ line: 12, field: 'claims[0].missing' });
    }
    const growth = inputErrorOf(() => load(failing('{{mean a at 1MiB}}', '{ kind: growth, of: a, at: 1MiB }')));
    expect(growth.detail).toContain('a growth claim has none');
    const unsupported = inputErrorOf(() =>
      load(claim('    measure: { kind: unsupported }\n    expect: fail\n    missing: "{{mean a at 1MiB}}"\n')),
    );
    expect(unsupported.detail).toContain('an unsupported claim has none');
  });

  it('rejects an empty size range, a missing scenario and unknown keys', () => {
    expect(
      inputErrorOf(() =>
        load(
          claim(
            '    measure: { kind: ratio-range, of: a, to: b, over: 4MiB..1MiB }\n    published: 1\n    tolerance: 0.1\n    expect: pass\n',
          ),
        ),
      ).detail,
    ).toContain('empty');
    const noScenario = `${head}  - { id: c, source: s, statement: st, scenario: nope.yaml, measure: { kind: unsupported }, expect: fail, missing: m }\n`;
    expect(inputErrorOf(() => load(noScenario)).location.field).toBe('claims[0].scenario');
    const typo = `${head}  - { id: c, source: s, statement: st, scenario: s.yaml, measure: { kind: unsupported }, expect: fail, missng: m }\n`;
    expect(inputErrorOf(() => load(typo)).detail).toContain("did you mean 'missing'?");
  });

  it('reads a ratio-gap against a second scenario beside the claims file, which must exist', () => {
    const gap = (against: string): string =>
      claim(
        `    measure: { kind: ratio-gap, of: a, to: b, over: 16KiB..4MiB, reduce: min, against: ${against} }\n    published: 0.04\n    tolerance: 0.1\n    expect: pass\n`,
      );
    const dir = papersDir(gap('t.yaml'), { 's.yaml': '', 't.yaml': '' });
    const [c] = loadClaimsFile(join(dir, '000', 'claims.yaml')).claims;
    expect(c.measure).toMatchObject({ kind: 'ratio-gap', of: 'a', to: 'b', reduce: 'min' });
    expect(c.measure.kind === 'ratio-gap' && c.measure.against).toBe(join(dir, '000', 't.yaml'));
    const e = inputErrorOf(() => load(gap('nope.yaml')));
    expect(e.detail).toContain('no scenario file nope.yaml');
    expect(e.location).toMatchObject({ line: 8, field: 'claims[0].measure.against' });
  });

  it('lets only a claim the model cannot express go without a scenario', () => {
    const unsupported = `${head}  - { id: c, source: s, statement: st, measure: { kind: unsupported }, expect: fail, missing: a NIC model }\n`;
    expect(load(unsupported).claims[0].scenario).toBeUndefined();
    const ratio = `${head}  - { id: c, source: s, statement: st, measure: { kind: ratio, of: a, to: b, at: 1MiB }, published: 1, tolerance: 0.1, expect: pass }\n`;
    expect(inputErrorOf(() => load(ratio)).detail).toContain("a claim needs 'scenario'");
  });

  it('rejects a duplicate claim id', () => {
    const one =
      '  - { id: c, source: s, statement: st, scenario: s.yaml, measure: { kind: unsupported }, expect: fail, missing: m }\n';
    const e = inputErrorOf(() => load(`${head}${one}${one}`));
    expect(e.detail).toContain("'c' appears twice");
    expect(e.location.line).toBe(5);
  });

  it('reports YAML syntax errors at their line', () => {
    const e = inputErrorOf(() => loadClaimsText(`${head}  - [unclosed\n`, '/x/claims.yaml'));
    expect(e.location.file).toBe('/x/claims.yaml');
    expect(e.location.line).toBeGreaterThanOrEqual(4);
  });
});
