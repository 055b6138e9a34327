// Whatever text a user feeds the loader, it either returns a scenario or throws one InputError
// with a one-line message: never a TypeError, a RangeError, or a hang.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { InputError } from '../../common/input-error.ts';
import { loadScenarioText, SCENARIO_KEYS } from '../../scenarios/loader.ts';
import { fakeResolver, registerFakes } from './fixtures.ts';

registerFakes();

const VALID = `name: valid
description: every field in use
machine: two-socket
ranks: 4
placement: [0, 1, 2, 3]
operation: test-op
algorithms:
  - linear
  - { name: tree, label: binomial }
  - name: test-op:linear
    label: big-segments
    params: { segment: 256KiB, depth: 3, direction: write, async: true, factor: 2.5 }
sizes: [1KiB..64KiB x4, 1MiB, 2MiB..3MiB +512KiB]
root: 2
cache: on
iterations: 3
warmup: 1
seed: 17
baseline: binomial
`;

const VALID_SWEEP = `operation: test-op
algorithms: [linear, tree]
sizes: 4KiB
sweep:
  ranks: [2, 8]
  machine: [two-socket, sub-numa]
  placement: [compact, scatter, [7, 6, 5, 4, 3, 2, 1, 0]]
`;

function outcome(text: string): 'ok' | 'input-error' {
  try {
    loadScenarioText(text, { file: 'fuzz.yaml', resolveMachine: fakeResolver });
    return 'ok';
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    expect(e.message).not.toContain('\n');
    expect(e.message.startsWith('fuzz.yaml')).toBe(true);
    return 'input-error';
  }
}

// Words that steer random documents into the deeper checks instead of failing at the first key.
const word = fc.constantFrom(
  ...SCENARIO_KEYS, 'two-socket', 'sub-numa', 'compact', 'scatter', 'linear', 'tree', 'test-op', 'test-ring',
  'test-op:tree', 'test-ring:ring', 'segment', 'depth', 'direction', 'read', 'write', 'params', 'label',
  '1KiB..4KiB', '4KiB..1KiB', '1..1GiB +1', '64KiB', '-1', '0', 'x2', 'on', 'off', '', ' ', '*a', '&a', '..',
);
const scalar = fc.oneof(word, fc.string(), fc.integer({ min: -3, max: 20 }), fc.double(), fc.boolean(), fc.constant(null));
const { value } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(word, tie('value'), { maxKeys: 5 }),
  ),
}));

const scenarioLike = fc.dictionary(fc.constantFrom(...SCENARIO_KEYS, 'sweep', 'bogus'), value, { maxKeys: 10 });

/** Text edits: delete a slice, insert text, or duplicate, drop or swap lines. */
const textEdit = fc.oneof(
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), length: fc.integer({ min: 1, max: 12 }) }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), text: fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom(':', '-', '[', ']', '{', '}', '\n', '  ', '#', '"', "'", '&x ', '*x', '!!binary ', '? ', '|', '>', '%', '\t')) }),
  fc.record({ kind: fc.constant('line' as const), a: fc.nat(), b: fc.nat(), op: fc.constantFrom('dup', 'drop', 'swap') }),
);
type Edit = typeof textEdit extends fc.Arbitrary<infer T> ? T : never;

function applyEdit(text: string, e: Edit): string {
  if (e.kind === 'delete') {
    const at = e.at % (text.length + 1);
    return text.slice(0, at) + text.slice(at + e.length);
  }
  if (e.kind === 'insert') {
    const at = e.at % (text.length + 1);
    return text.slice(0, at) + e.text + text.slice(at);
  }
  const lines = text.split('\n');
  const a = e.a % lines.length;
  const b = e.b % lines.length;
  if (e.op === 'dup') lines.splice(a, 0, lines[a]);
  else if (e.op === 'drop') lines.splice(a, 1);
  else [lines[a], lines[b]] = [lines[b], lines[a]];
  return lines.join('\n');
}

/** Replaces one top-level value of a valid document with a random one, or removes it. */
function replaceField(text: string, key: string, replacement: unknown, remove: boolean): string {
  const doc = loadAsObject(text);
  if (remove) delete doc[key];
  else doc[key] = replacement;
  return stringify(doc);
}

function loadAsObject(text: string): Record<string, unknown> {
  // The valid documents are plain YAML; yaml's own parse gives a mutable copy.
  return JSON.parse(JSON.stringify(parse(text)));
}

describe('the loader throws nothing but InputError', () => {
  it('accepts the valid documents the mutations start from', () => {
    expect(outcome(VALID)).toBe('ok');
    expect(outcome(VALID_SWEEP)).toBe('ok');
  });

  it('on random strings', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (text) => void outcome(text)), { numRuns: 500 });
  });

  it('on random YAML values', () => {
    fc.assert(fc.property(value, (v) => void outcome(stringify(v))), { numRuns: 500 });
  });

  it('on random scenario-shaped documents', () => {
    fc.assert(fc.property(scenarioLike, (doc) => void outcome(stringify(doc))), { numRuns: 1000 });
  });

  it('on text mutations of valid documents', () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(fc.constantFrom(VALID, VALID_SWEEP), fc.array(textEdit, { minLength: 1, maxLength: 4 }), (base, edits) => {
        seen.add(outcome(edits.reduce(applyEdit, base)));
      }),
      { numRuns: 1500 },
    );
    // The edits must sometimes leave a valid scenario, or they would only ever test the parser.
    expect([...seen].sort()).toEqual(['input-error', 'ok']);
  });

  it('on one field of a valid document replaced by a random value', () => {
    const seen = new Set<string>();
    fc.assert(
      fc.property(fc.constantFrom(VALID, VALID_SWEEP), fc.constantFrom(...SCENARIO_KEYS), value, fc.boolean(), (base, key, v, remove) => {
        seen.add(outcome(replaceField(base, key, v, remove)));
      }),
      { numRuns: 1000 },
    );
    expect([...seen].sort()).toEqual(['input-error', 'ok']);
  });
});
