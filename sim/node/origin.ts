// Where a simulated byte came from. Buffers never hold real bytes (a 16 MiB broadcast to 64 ranks
// would need a GiB), so a byte is described by its provenance: byte k of a named source, or an
// element-wise reduction of several such bytes. Tests compare provenance to check that an algorithm
// delivered exactly the right data, reductions included.

/** One operand of a reduction: byte `originOffset + i + shift` of `source`. */
export interface ReduceTerm {
  readonly source: string;
  readonly shift: number;
}

/**
 * For a piece with offset `o`, byte i of the piece is:
 * - 'data': byte (o + i) of `source`;
 * - 'reduce': `op` over every term t of byte (o + i + t.shift) of t.source.
 * A 'reduce' origin built here is normalised: terms sorted by (source, shift), the first term's
 * shift is 0 (the rest is folded into the offset), multiplicity kept.
 */
export type Origin =
  | { readonly kind: 'data'; readonly source: string }
  | { readonly kind: 'reduce'; readonly op: string; readonly terms: readonly ReduceTerm[] };

/** An origin together with the offset of the first byte it describes. */
export interface Located {
  readonly origin: Origin;
  readonly offset: number;
}

export function dataOrigin(source: string): Origin {
  return { kind: 'data', source };
}

/**
 * The origin of op(a[i], b[i]). Operations are taken to be commutative and associative (sum, prod,
 * max, min, band, bor, ...), which is what lets operands be flattened and sorted so that any
 * reduction order yields the same key. A nested reduction under a different op cannot be
 * flattened; it becomes an opaque term whose source is its own key, which keeps it exact.
 */
export function reduceOrigins(op: string, a: Located, b: Located): Located {
  if (op.length === 0) throw new Error('reduceOrigins: empty reduction op');
  const terms: ReduceTerm[] = [...absoluteTerms(op, a), ...absoluteTerms(op, b)];
  terms.sort(compareTerms);
  const base = terms[0].shift;
  const normalised = terms.map((t) => ({ source: t.source, shift: t.shift - base }));
  return { origin: { kind: 'reduce', op, terms: normalised }, offset: base };
}

/** Terms of `x` with shifts made absolute (relative to piece byte 0 at offset 0). */
function absoluteTerms(op: string, x: Located): ReduceTerm[] {
  const o = x.origin;
  if (o.kind === 'reduce' && o.op === op) {
    return o.terms.map((t) => ({ source: t.source, shift: t.shift + x.offset }));
  }
  const source = o.kind === 'data' ? o.source : `[${originKey(o)}]`;
  return [{ source, shift: x.offset }];
}

function compareTerms(x: ReduceTerm, y: ReduceTerm): number {
  if (x.source !== y.source) return x.source < y.source ? -1 : 1;
  return x.shift - y.shift;
}

// Origins are immutable and shared between pieces, so memoising their keys keeps merges cheap.
const keyCache = new WeakMap<Origin, string>();

/** A string equal for two origins exactly when they describe the same content (given normalised input). */
export function originKey(o: Origin): string {
  const cached = keyCache.get(o);
  if (cached !== undefined) return cached;
  const key = o.kind === 'data' ? o.source : `${o.op}(${o.terms.map((t) => `${t.source}@${t.shift}`).join(',')})`;
  keyCache.set(o, key);
  return key;
}
