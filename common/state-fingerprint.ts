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
  // Depth first with a stack of its own, not recursion: state holds long linked lists (a cache's
  // ranges) that would overflow the call stack. An entry is a value to walk or a token to emit.
  type Entry = { value: unknown; path: string } | { token: unknown; path: string };
  const stack: Entry[] = [{ value: roots, path: '' }];
  const emit = (token: unknown, path: string) => {
    tokens.push(token);
    if (paths) paths.push(path);
  };
  while (stack.length > 0) {
    const e = stack.pop()!;
    if ('token' in e) {
      emit(e.token, e.path);
      continue;
    }
    const { value: v, path } = e;
    if (typeof v === 'function') {
      emit('fn', path);
      continue;
    }
    if (v === null || typeof v !== 'object') {
      emit(v, path);
      continue;
    }
    const id = seen.get(v);
    if (id !== undefined) {
      emit('@', path);
      emit(id, path);
      continue;
    }
    seen.set(v, seen.size);
    // What comes next, in order; pushed reversed so that the stack pops it in order.
    const next: Entry[] = [];
    const token = (t: unknown) => next.push({ token: t, path });
    // Paths are built only when asked for: they cost a string per token.
    const child = (sub: string, x: unknown) => next.push({ value: x, path: paths ? path + sub : '' });
    // An object returning itself is walked field by field, as one without the method.
    const canonical = hasCanonical(v) ? v[CANONICAL_STATE](now) : v;
    if (canonical !== v) {
      token('canonical');
      child('', canonical);
    } else if (v instanceof Map) {
      token('map');
      token(v.size);
      for (const [k, x] of v) {
        child('', k);
        child(`<${typeof k === 'object' ? '.' : String(k)}>`, x);
      }
    } else if (v instanceof Set) {
      token('set');
      token(v.size);
      for (const x of v) child('{}', x);
    } else if (ArrayBuffer.isView(v)) {
      const a = v as unknown as ArrayLike<number>;
      token('typed');
      token(a.length);
      for (let i = 0; i < a.length; i++) token(a[i]);
    } else if (Array.isArray(v)) {
      token('array');
      token(v.length);
      (v as unknown[]).forEach((x, i) => child(`[${i}]`, x));
    } else {
      const rules = rulesOf(v);
      token('object');
      token((v.constructor as { name?: string } | undefined)?.name);
      for (const key of Object.keys(v)) {
        const rule = rules?.[key];
        if (rule === 'ignore') continue;
        token(key);
        const x = (v as Record<string, unknown>)[key];
        child(`.${key}`, rule === 'time' && typeof x === 'number' ? Math.round((now - x) * 1000) : x);
      }
    }
    for (let i = next.length - 1; i >= 0; i--) stack.push(next[i]);
  }
  return tokens;
}

/** Whether two fingerprints are of the same state. */
export function sameState(a: readonly unknown[], b: readonly unknown[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false;
  return true;
}
