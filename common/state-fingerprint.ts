// The state of a simulation as a list of tokens, so that two moments can be compared: if a run is
// in the same state at the start of two calls, the second call replays the first (the simulator is
// deterministic), and the harness need not simulate it again (algorithms/harness/steady-state.ts).
//
// The walk is generic: every field of every object reachable from the roots is part of the state,
// objects shared by several paths are named by the order the walk first met them, Maps and Sets in
// their iteration order. It fails safe: a field it does not know about that differs makes the two
// states differ, which only costs a replay that does not happen. A class narrows the walk only with
// rules written beside its fields (`stateRules`), each of which must hold for a replay to be exact:
//   'ignore': the field never changes what the simulation does (statistics, walk stamps compared only
//             for equality with a newer stamp, ids used only to order things made in the same order);
//   'time':   an absolute time, compared as its distance from now (to the picosecond, since absolute
//             times round differently at different clocks);
// or with a method under `CANONICAL_STATE` returning what stands for the object in the walk (the
// object itself to be walked field by field after all).
// State held in closures is invisible to the walk: modules holding state across calls keep it in
// fields, not closures.

export type FieldRule = 'ignore' | 'time';

/** A method returning what stands for the object in the walk, given the current time. */
export const CANONICAL_STATE = Symbol('canonical state');

export interface HasCanonicalState {
  [CANONICAL_STATE](now: number): unknown;
}

const RULES = new Map<object, Readonly<Record<string, FieldRule>>>();

/** Declares how the walk treats some fields of `ctor`'s instances (see the module comment). */
export function stateRules(ctor: abstract new (...args: never[]) => unknown, rules: Record<string, FieldRule>): void {
  RULES.set(ctor.prototype as object, rules);
}

function rulesOf(obj: object): Readonly<Record<string, FieldRule>> | undefined {
  for (let p = Object.getPrototypeOf(obj) as object | null; p !== null; p = Object.getPrototypeOf(p) as object | null) {
    const r = RULES.get(p);
    if (r !== undefined) return r;
  }
  return undefined;
}

function hasCanonical(obj: object): obj is HasCanonicalState {
  return typeof (obj as Partial<HasCanonicalState>)[CANONICAL_STATE] === 'function';
}

/**
 * The tokens of the state reachable from `roots` at time `now`; equal lists mean equal states. With
 * `paths`, the field path of every token is pushed there too, to say where two states differ.
 */
export function stateFingerprint(roots: unknown, now: number, paths?: string[]): unknown[] {
  const tokens: unknown[] = [];
  const seen = new Map<object, number>();
  let path = '';
  const out = {
    push(...xs: unknown[]) {
      tokens.push(...xs);
      if (paths) for (let i = 0; i < xs.length; i++) paths.push(path);
    },
  };
  const at = (sub: string, v: unknown) => {
    if (paths === undefined) return walk(v);
    const before = path;
    path += sub;
    walk(v);
    path = before;
  };
  const walk = (v: unknown): void => {
    if (typeof v === 'function') return void out.push('fn');
    if (v === null || typeof v !== 'object') return void out.push(v);
    const id = seen.get(v);
    if (id !== undefined) return void out.push('@', id);
    seen.set(v, seen.size);
    // An object returning itself is walked field by field, as one without the method.
    const canonical = hasCanonical(v) ? v[CANONICAL_STATE](now) : v;
    if (canonical !== v) {
      out.push('canonical');
      return walk(canonical);
    }
    if (v instanceof Map) {
      out.push('map', v.size);
      for (const [k, x] of v) {
        walk(k);
        at(`<${typeof k === 'object' ? '.' : String(k)}>`, x);
      }
      return;
    }
    if (v instanceof Set) {
      out.push('set', v.size);
      for (const x of v) at('{}', x);
      return;
    }
    if (ArrayBuffer.isView(v)) {
      const a = v as unknown as ArrayLike<number>;
      out.push('typed', a.length);
      for (let i = 0; i < a.length; i++) out.push(a[i]);
      return;
    }
    if (Array.isArray(v)) {
      out.push('array', v.length);
      (v as unknown[]).forEach((x, i) => at(`[${i}]`, x));
      return;
    }
    const rules = rulesOf(v);
    out.push('object', (v.constructor as { name?: string } | undefined)?.name);
    for (const key of Object.keys(v)) {
      const rule = rules?.[key];
      if (rule === 'ignore') continue;
      out.push(key);
      const x = (v as Record<string, unknown>)[key];
      at(`.${key}`, rule === 'time' && typeof x === 'number' ? Math.round((now - x) * 1000) : x);
    }
  };
  walk(roots);
  return tokens;
}

/** Whether two fingerprints are of the same state. */
export function sameState(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false;
  return true;
}
