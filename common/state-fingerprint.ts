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
// object itself to be walked field by field after all), or under `STATE_TOKENS` giving its tokens
// itself. The tokens are kept in typed arrays (`Fingerprint`), not as a list of values.
// State held in closures is invisible to the walk: modules holding state across calls keep it in
// fields, not closures.

export type FieldRule = 'ignore' | 'time';

/** A method returning what stands for the object in the walk, given the current time. */
export const CANONICAL_STATE = Symbol('canonical state');

export interface HasCanonicalState {
  [CANONICAL_STATE](now: number): unknown;
}

/** A token an object may emit itself: a primitive, never an object to be walked. */
export type StateToken = number | string | boolean | undefined | null;

/**
 * A method giving the object's tokens straight to the walk, for a large object whose state is a long
 * list of primitives (a cache's ranges): the same as returning them as an array under
 * `CANONICAL_STATE`, without building the array and walking it value by value.
 */
export const STATE_TOKENS = Symbol('state tokens');

export interface EmitsStateTokens {
  [STATE_TOKENS](push: (token: StateToken) => void, now: number): void;
}

const RULES = new Map<object, Readonly<Record<string, FieldRule>>>();

/** Declares how the walk treats some fields of `ctor`'s instances (see the module comment). */
export function stateRules(ctor: abstract new (...args: never[]) => unknown, rules: Record<string, FieldRule>): void {
  RULES.set(ctor.prototype as object, rules);
}

// The prototype chain is looked up once per prototype: the walk meets the same few classes
// thousands of times.
const RULES_OF = new Map<object | null, Readonly<Record<string, FieldRule>> | null>();

function rulesOf(obj: object): Readonly<Record<string, FieldRule>> | null {
  const proto = Object.getPrototypeOf(obj) as object | null;
  let found = RULES_OF.get(proto);
  if (found === undefined) {
    found = null;
    for (let p = proto; p !== null; p = Object.getPrototypeOf(p) as object | null) {
      const r = RULES.get(p);
      if (r !== undefined) {
        found = r;
        break;
      }
    }
    RULES_OF.set(proto, found);
  }
  return found;
}

// What a token says about the shape of what follows. Symbols, so no value held in the state can be
// taken for one: the token list then reads back into one state only.
const FN = Symbol('function');
const REF = Symbol('seen before');
const CANONICAL = Symbol('canonical');
const EMITTED = Symbol('emitted');
const END = Symbol('end');
const MAP = Symbol('map');
const SET = Symbol('set');
const TYPED = Symbol('typed array');
const ARRAY = Symbol('array');
const OBJECT = Symbol('object');

/** Reverses stack[from..] in place: children are pushed in order and must pop in order. */
function reverseFrom(stack: unknown[], from: number): void {
  for (let i = from, j = stack.length - 1; i < j; i++, j--) {
    const t = stack[i];
    stack[i] = stack[j];
    stack[j] = t;
  }
}

/**
 * The tokens of the state reachable from `roots` at time `now`; equal fingerprints (taken with one
 * `TokenIds`) mean equal states. With `paths`, the field path of every token is pushed there too, to
 * say where two states differ.
 *
 * An object gives its kind, then what fixes its shape (its class and field names, a collection's
 * size), then its children's tokens in order, depth first. The walk keeps a stack of values of its
 * own, not recursion (state holds long linked lists, a cache's ranges, that would overflow the call
 * stack), and allocates nothing per value but the ids of strings it has not met before: it is taken
 * at the start of calls it may save.
 */
export function stateFingerprint(
  roots: unknown,
  now: number,
  paths?: string[],
  { ids = SHARED_IDS, capacity = 0 }: { ids?: TokenIds; capacity?: number } = {},
): Fingerprint {
  const tokens = new Fingerprint(ids, capacity);
  const seen = new Map<object, number>();
  const stack: unknown[] = [roots];
  // Paths are kept only when asked for, in a stack beside the values: they cost a string per token.
  const pathStack: string[] | undefined = paths ? [''] : undefined;
  let path = '';
  const emit = paths
    ? (token: unknown) => {
        tokens.push(token);
        paths.push(path);
      }
    : (token: unknown) => tokens.push(token);
  const child = pathStack ? (sub: string, x: unknown) => (stack.push(x), pathStack.push(path + sub)) : undefined;
  // An object's own tokens must be values: an object or function pushed would be compared by
  // identity, equal to itself in two walks even after it changed.
  const ownToken = (token: unknown): void => {
    if ((typeof token === 'object' && token !== null) || typeof token === 'function' || typeof token === 'symbol')
      throw new TypeError(`a state token must be a number, string, boolean, undefined or null, got ${typeof token}`);
    emit(token);
  };
  while (stack.length > 0) {
    const v = stack.pop();
    if (pathStack) path = pathStack.pop()!;
    if (typeof v === 'function') {
      emit(FN);
      continue;
    }
    if (v === null || typeof v !== 'object') {
      emit(v);
      continue;
    }
    const id = seen.get(v);
    if (id !== undefined) {
      emit(REF);
      emit(id);
      continue;
    }
    seen.set(v, seen.size);
    const from = stack.length;
    const own = (v as Partial<EmitsStateTokens>)[STATE_TOKENS];
    if (typeof own === 'function') {
      // Its tokens are primitives, none of them END, so where they stop reads back unambiguously.
      emit(EMITTED);
      emit((v.constructor as { name?: string } | undefined)?.name);
      own.call(v, ownToken, now);
      emit(END);
      continue;
    }
    // An object returning itself is walked field by field, as one without the method.
    const method = (v as Partial<HasCanonicalState>)[CANONICAL_STATE];
    const canonical = typeof method === 'function' ? method.call(v, now) : v;
    if (canonical !== v) {
      emit(CANONICAL);
      if (child) child('', canonical);
      else stack.push(canonical);
    } else if (v instanceof Map) {
      emit(MAP);
      emit(v.size);
      for (const [k, x] of v) {
        if (child) {
          child('', k);
          child(`<${typeof k === 'object' ? '.' : String(k)}>`, x);
        } else stack.push(k, x);
      }
    } else if (v instanceof Set) {
      emit(SET);
      emit(v.size);
      for (const x of v) {
        if (child) child('{}', x);
        else stack.push(x);
      }
    } else if (ArrayBuffer.isView(v)) {
      const a = v as unknown as ArrayLike<number>;
      emit(TYPED);
      emit(a.length);
      for (let i = 0; i < a.length; i++) emit(a[i]);
    } else if (Array.isArray(v)) {
      emit(ARRAY);
      emit(v.length);
      for (let i = 0; i < v.length; i++) {
        if (child) child(`[${i}]`, v[i]);
        else stack.push(v[i]);
      }
    } else {
      const rules = rulesOf(v);
      const rec = v as Record<string, unknown>;
      const keys = Object.keys(v);
      emit(OBJECT);
      emit((v.constructor as { name?: string } | undefined)?.name);
      let kept = 0;
      for (const key of keys) if (rules?.[key] !== 'ignore') kept++;
      emit(kept);
      for (const key of keys) {
        const rule = rules?.[key];
        if (rule === 'ignore') continue;
        emit(key);
        const x = rec[key];
        const value = rule === 'time' && typeof x === 'number' ? Math.round((now - x) * 1000) : x;
        if (child) child(`.${key}`, value);
        else stack.push(value);
      }
    }
    reverseFrom(stack, from);
    if (pathStack) reverseFrom(pathStack, from);
  }
  return tokens;
}

/** Whether two fingerprints are of the same state (taken with the same `TokenIds`). */
export function sameState(a: Fingerprint, b: Fingerprint): boolean {
  return a.equals(b);
}

/**
 * Numbers for the tokens that are not numbers (field and class names, the walk's shape symbols,
 * strings, booleans, undefined, null), the same number for the same token: fingerprints compared
 * with each other take theirs from one `TokenIds`.
 */
export class TokenIds {
  private readonly ids = new Map<unknown, number>();
  private readonly values: unknown[] = [];

  idOf(token: unknown): number {
    let id = this.ids.get(token);
    if (id === undefined) {
      id = this.values.length;
      this.ids.set(token, id);
      this.values.push(token);
    }
    return id;
  }

  tokenOf(id: number): unknown {
    return this.values[id];
  }
}

/** For callers that compare a few fingerprints and keep no ids of their own: tests and diagnostics
 *  only, since it keeps every string it is given for the life of the process. */
const SHARED_IDS = new TokenIds();

/**
 * The tokens of a walk, kept to compare with later ones: in two typed arrays, a number as itself,
 * any other token as its id. A walk emits hundreds of thousands of tokens; generic arrays that size
 * cost far more to fill (and to collect) than typed ones, which hold numbers unboxed.
 */
export class Fingerprint {
  /** Per token: its id, or NUMBER when the token is the number at the same place in `numbers`. */
  private kinds: Int32Array;
  private numbers: Float64Array;
  private count = 0;

  constructor(
    readonly ids: TokenIds,
    capacity: number,
  ) {
    // A capacity that is no whole number (NaN, a fraction) must not give an empty store, whose
    // dropped writes would make any two fingerprints of one length equal.
    this.kinds = new Int32Array(Number.isFinite(capacity) ? Math.max(64, Math.floor(capacity)) : 64);
    this.numbers = new Float64Array(this.kinds.length);
  }

  /** Tokens pushed so far. */
  get length(): number {
    return this.count;
  }

  push(token: unknown): void {
    if (this.count >= this.kinds.length) this.grow();
    if (typeof token === 'number') {
      this.kinds[this.count] = NUMBER;
      this.numbers[this.count] = token;
    } else this.kinds[this.count] = this.ids.idOf(token);
    this.count++;
  }

  private grow(): void {
    const kinds = new Int32Array(Math.max(64, this.kinds.length * 2));
    kinds.set(this.kinds);
    const numbers = new Float64Array(kinds.length);
    numbers.set(this.numbers);
    this.kinds = kinds;
    this.numbers = numbers;
  }

  /** Drops the room left after the last token (a fingerprint kept for later calls holds no more). */
  compact(): this {
    this.kinds = this.kinds.slice(0, this.count);
    this.numbers = this.numbers.slice(0, this.count);
    return this;
  }

  /** Every token, in order (to say where two states differ; comparing does not need them). */
  tokens(): unknown[] {
    return Array.from({ length: this.count }, (_, i) =>
      this.kinds[i] === NUMBER ? this.numbers[i] : this.ids.tokenOf(this.kinds[i]),
    );
  }

  /** Token for token the same, numbers by Object.is (NaN equals NaN, 0 differs from -0). */
  equals(other: Fingerprint): boolean {
    if (this.ids !== other.ids) throw new Error('fingerprints taken with different token ids cannot be compared');
    if (this.count !== other.count) return false;
    const [ka, kb, na, nb] = [this.kinds, other.kinds, this.numbers, other.numbers];
    for (let i = 0; i < this.count; i++) {
      if (ka[i] !== kb[i]) return false;
      if (ka[i] === NUMBER && !Object.is(na[i], nb[i])) return false;
    }
    return true;
  }
}

const NUMBER = -1;
