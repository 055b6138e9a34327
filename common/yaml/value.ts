// One value of a parsed YAML document, together with where it is and what it is called, so that
// any complaint about it names the file, line:column and field path ("algorithms[1].params.segment").
// Both loaders (scenarios and machine files) read their documents through this one class.
//
// Accessors take an optional `what`, the name the reader gives the value in prose: with it, a
// complaint reads "ranks must be an integer, got 2.5"; without it, "expected an integer, got 2.5"
// (the field path in the location already names the value).
import { isControl } from '../printable.ts';
import { isAlias, isMap, isScalar, isSeq, type Document, type LineCounter, type Node } from 'yaml';
import { didYouMean, InputError, type InputLocation } from '../input-error.ts';

export interface YamlSource {
  file?: string;
  lines: LineCounter;
  doc: Document;
}

export type Scalar = string | number | boolean | null;

export class YamlValue {
  constructor(
    private readonly source: YamlSource,
    /** undefined: the key is absent; `at` then locates its would-be parent. */
    readonly node: Node | undefined,
    /** Field path in the document, e.g. "packages[0].caches[1].size". */
    readonly path: string,
    /** Offset in the text to point at: the node's own, or its parent's when it has none. */
    private readonly at: number,
  ) {}

  /** The key is written, even with an empty value (`sizes:`). */
  get present(): boolean {
    return this.node !== undefined;
  }

  /** The key is written with a value that is not empty. */
  get filled(): boolean {
    const n = this.resolved();
    return n !== undefined && !(isScalar(n) && n.value === null);
  }

  get file(): string | undefined {
    return this.source.file;
  }

  location(): InputLocation {
    const { line, col } = this.source.lines.linePos(this.at);
    return { file: this.source.file, line, column: col, field: this.path || undefined };
  }

  error(detail: string): InputError {
    // Values quoted from the document may hold line breaks; the CLI prints one line per error.
    return new InputError(detail.replace(/\r?\n/g, '\\n'), this.location());
  }

  fail(detail: string): never {
    throw this.error(detail);
  }

  /** The node behind an alias (`*name`), so `&anchor` reuse works like a copy. */
  private resolved(): Node | undefined {
    let node: unknown = this.node;
    for (let hops = 0; isAlias(node); hops++) {
      if (hops > 16) throw this.error('alias chain is too long');
      node = node.resolve(this.source.doc);
      if (node === undefined) throw this.error('alias refers to an unknown anchor');
    }
    // Tags (!custom, !!float, !!binary...) are part of neither format: a tag the parser does not
    // know is dropped with a warning, one it knows changes what the value means.
    const tag = (node as Node | undefined)?.tag;
    if (tag !== undefined) throw this.error(`YAML tags are not supported (found ${shortTag(tag)})`);
    return node as Node | undefined;
  }

  private child(node: unknown, path: string, fallback: number): YamlValue {
    const n = (node as Node | null | undefined) ?? undefined;
    return new YamlValue(this.source, n, path, n?.range?.[0] ?? fallback);
  }

  kind(): 'map' | 'seq' | 'scalar' | 'absent' {
    const n = this.resolved();
    if (n === undefined) return 'absent';
    if (isMap(n)) return 'map';
    if (isSeq(n)) return 'seq';
    return 'scalar';
  }

  /** Entries of a mapping in document order; keys outside `known` are rejected with a suggestion. */
  entries(what?: string, known?: readonly string[]): Map<string, YamlValue> {
    const n = this.resolved();
    if (!isMap(n)) {
      if (what) this.fail(`${what} must be a mapping (key: value), got ${this.describe()}`);
      this.fail(`expected a mapping${known ? ` with keys ${known.join(', ')}` : ''}, got ${this.describe()}`);
    }
    const out = new Map<string, YamlValue>();
    for (const pair of n.items) {
      const keyNode = (pair.key as Node | null) ?? undefined;
      const keyAt = keyNode?.range?.[0] ?? this.at;
      const key = isScalar(keyNode) ? keyNode.value : undefined;
      if (typeof key !== 'string' && typeof key !== 'number') {
        this.child(keyNode, this.path, keyAt).fail(`keys${what ? ` of ${what}` : ''} must be plain names`);
      }
      const name = String(key);
      const path = this.path ? `${this.path}.${name}` : name;
      const keyField = this.child(keyNode, path, keyAt);
      // YAML 1.1's merge key; in YAML 1.2, which both formats are, `<<` is a key like any other.
      if (name === '<<')
        keyField.fail('merge keys (<<: *anchor) are not supported: write the keys out, or alias a whole value');
      if (known && !known.includes(name)) keyField.fail(unknownKey(name, known, what));
      if (out.has(name)) keyField.fail(`key '${name}' appears twice`);
      // `{ ranks }` or `? ranks` gives a key no value at all, not even an empty one (`ranks:`).
      if (pair.value === null || pair.value === undefined)
        keyField.fail(`'${name}' has no value: write '${name}: VALUE'`);
      out.set(name, this.child(pair.value, path, keyAt));
    }
    return out;
  }

  /** A mapping whose keys must all be in `known`, read through `req`/`get`. */
  map(known: readonly string[], what?: string): MapReader {
    return new MapReader(this, this.entries(what, known));
  }

  items(what?: string): YamlValue[] {
    const n = this.resolved();
    if (!isSeq(n))
      this.fail(what ? `${what} must be a list, got ${this.describe()}` : `expected a list, got ${this.describe()}`);
    return n.items.map((item, i) => this.child(item, `${this.path}[${i}]`, this.at));
  }

  /** The scalar, or null for an absent or empty value. */
  scalar(): Scalar {
    const n = this.resolved();
    if (n === undefined) return null;
    if (!isScalar(n)) this.fail(`expected a single value, got ${this.describe()}`);
    const v = n.value;
    if (v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
    this.fail(`expected a single value, got ${this.describe()}`);
  }

  /** A scalar that must be there; `expected` says what would have been right. */
  required(expected: string): string | number | boolean {
    const v = this.kind() === 'scalar' ? this.scalar() : null;
    if (v === null) this.fail(`expected ${expected}, got ${this.describe()}`);
    return v;
  }

  string(what?: string): string {
    const v = what ? this.scalar() : this.required('a string');
    if (typeof v !== 'string')
      this.fail(
        what ? `${what} must be a string, got ${this.describe()}` : `expected a string, got ${this.describe()}`,
      );
    return v;
  }

  /**
   * Text a report prints (a name, a label, a description): a control character in it would break
   * the report's lines and columns, so it is refused; `lines` lets a description hold line breaks,
   * which the reports print one line each.
   */
  printable(what: string, opts: { lines?: boolean } = {}): string {
    const text = this.text(what);
    for (const ch of text) {
      const code = ch.codePointAt(0)!;
      if (!isControl(code) || (opts.lines && ch === '\n')) continue;
      const name =
        ch === '\n'
          ? 'a line break'
          : ch === '\t'
            ? 'a tab'
            : `the control character U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
      this.fail(`${what} must be printable${opts.lines ? '' : ' on one line'}: it holds ${name}`);
    }
    return text;
  }

  /** A name that may be written as a number (seed: 42, model: 7742). */
  text(what?: string): string {
    const v = what ? this.scalar() : this.required('a string');
    if (typeof v === 'string') return v;
    if (typeof v === 'number' && Number.isFinite(v)) {
      // A name is its text: `1.10`, `010` or `1e3` unquoted would read as 1.1, 10 or 1000.
      const written = (this.resolved() as { source?: unknown } | undefined)?.source;
      if (typeof written === 'string' && written !== String(v))
        this.fail(`write '${written}' in quotes: unquoted, it reads as the number ${v}`);
      return String(v);
    }
    this.fail(
      what
        ? `${what} must be a string or a number, got ${this.describe()}`
        : `expected a string, got ${this.describe()}`,
    );
  }

  number(what?: string): number {
    const v = what ? this.scalar() : this.required('a number');
    if (typeof v !== 'number' || !Number.isFinite(v)) {
      this.fail(
        what ? `${what} must be a number, got ${this.describe()}` : `expected a finite number, got ${this.describe()}`,
      );
    }
    return v;
  }

  integer(min: number, what?: string): number {
    const v = this.number(what);
    if (what) {
      if (!Number.isInteger(v)) this.fail(`${what} must be an integer, got ${this.describe()}`);
      if (v < min) this.fail(`${what} must be at least ${min}, got ${v}`);
      if (v > Number.MAX_SAFE_INTEGER) this.fail(`${what} is too large`);
    } else if (!Number.isInteger(v) || v < min || v > Number.MAX_SAFE_INTEGER) {
      this.fail(`expected an integer >= ${min}, got ${v}`);
    }
    return v;
  }

  boolean(): boolean {
    const v = this.required('true or false');
    if (typeof v !== 'boolean') this.fail(`expected true or false, got ${this.describe()}`);
    return v;
  }

  oneOf<T extends string>(choices: readonly T[]): T {
    const v = this.text();
    if (!(choices as readonly string[]).includes(v)) {
      const suggestion = didYouMean(v, choices);
      this.fail(`'${v}' is not one of ${choices.join(', ')}${suggestion ? ` (did you mean '${suggestion}'?)` : ''}`);
    }
    return v as T;
  }

  describe(): string {
    const n = this.resolved();
    if (n === undefined) return 'nothing';
    if (isMap(n)) return 'a mapping';
    if (isSeq(n)) return 'a list';
    const v = isScalar(n) ? n.value : undefined;
    if (v === null) return 'an empty value';
    if (typeof v === 'string') return `'${v.length > 40 ? `${v.slice(0, 40)}...` : v}'`;
    if (typeof v === 'number') return describeNumber(v);
    if (typeof v === 'boolean') return String(v);
    return 'an unsupported value';
  }
}

/** A number as a message shows it: YAML's .nan and .inf, and numbers too large for a double (1e400),
 *  are named as what they are rather than printed as NaN or Infinity. */
export function describeNumber(v: number): string {
  if (Number.isNaN(v)) return "'.nan', which is not a number";
  if (!Number.isFinite(v)) return v > 0 ? 'an infinite or too large number' : 'a negative infinite or too large number';
  return String(v);
}

function unknownKey(name: string, known: readonly string[], what: string | undefined): string {
  const suggestion = didYouMean(name, known);
  const hint = suggestion ? ` (did you mean '${suggestion}'?)` : '';
  // In prose ("in the scenario") the list follows the hint; terse messages give one or the other.
  if (what) return `unknown key '${name}' in ${what}${hint}; known keys: ${known.join(', ')}`;
  return `unknown key '${name}'${hint || ` (known keys: ${known.join(', ')})`}`;
}

/** Reads a mapping's keys by name, treating empty values as absent. */
export class MapReader {
  constructor(
    readonly owner: YamlValue,
    private readonly fields: Map<string, YamlValue>,
  ) {}

  has(key: string): boolean {
    return this.fields.get(key)?.filled ?? false;
  }

  get(key: string): YamlValue | undefined {
    const entry = this.fields.get(key);
    return entry?.filled ? entry : undefined;
  }

  req(key: string): YamlValue {
    const entry = this.get(key);
    if (!entry) {
      const path = this.owner.path ? `${this.owner.path}.${key}` : key;
      throw new InputError(`missing required field '${key}'`, { ...this.owner.location(), field: path });
    }
    return entry;
  }

  /** Fails when more than one of the given keys is present, or (if `required`) none is. */
  exclusive(keys: readonly string[], required: boolean): string | undefined {
    const present = keys.filter((k) => this.has(k));
    if (present.length > 1) this.get(present[1])!.fail(`give only one of ${keys.join(', ')}`);
    if (required && present.length === 0) this.owner.fail(`give one of ${keys.join(', ')}`);
    return present[0];
  }
}

/** A tag as written: the YAML core tags by their `!!` shorthand. */
function shortTag(tag: string): string {
  return tag.startsWith('tag:yaml.org,2002:') ? `!!${tag.slice('tag:yaml.org,2002:'.length)}` : tag;
}
