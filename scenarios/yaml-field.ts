// Typed reading of a parsed YAML document that keeps every value's position, so that an error
// names the file, the line and column, and the field path ("algorithms[1].params.segment").
import { isAlias, isMap, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node } from 'yaml';
import { didYouMean, InputError } from '../common/input-error.ts';

interface Source {
  file?: string;
  lineCounter: LineCounter;
  doc: Document;
}

export type Scalar = string | number | boolean | null;

/** One value in the document together with where it is and what it is called. */
export class Field {
  constructor(
    private readonly source: Source,
    /** undefined: the key is absent; `at` then locates its would-be parent. */
    readonly node: Node | undefined,
    readonly path: string,
    private readonly at: number,
  ) {}

  get present(): boolean {
    return this.node !== undefined;
  }

  get file(): string | undefined {
    return this.source.file;
  }

  error(detail: string): InputError {
    const { line, col } = this.source.lineCounter.linePos(this.at);
    // Values quoted from the document may hold line breaks; the CLI prints one line per error.
    return new InputError(detail.replace(/\r?\n/g, '\\n'), { file: this.source.file, line, column: col, field: this.path || undefined });
  }

  /** The node behind an alias (`*name`), so `&anchor` reuse works like a copy. */
  private resolved(): Node | undefined {
    let node: unknown = this.node;
    for (let hops = 0; isAlias(node); hops++) {
      if (hops > 16) throw this.error('alias chain is too long');
      node = node.resolve(this.source.doc);
      if (node === undefined) throw this.error('alias refers to an unknown anchor');
    }
    return node as Node | undefined;
  }

  private child(node: Node | undefined, path: string, fallback: number): Field {
    return new Field(this.source, node, path, node?.range?.[0] ?? fallback);
  }

  kind(): 'map' | 'seq' | 'scalar' | 'absent' {
    const n = this.resolved();
    if (n === undefined) return 'absent';
    if (isMap(n)) return 'map';
    if (isSeq(n)) return 'seq';
    return 'scalar';
  }

  /** Entries of a mapping, keys as strings; rejects keys outside `known` with a suggestion. */
  entries(what: string, known?: readonly string[]): Map<string, Field> {
    const n = this.resolved();
    if (!isMap(n)) throw this.error(`${what} must be a mapping (key: value), got ${this.describe()}`);
    const out = new Map<string, Field>();
    for (const pair of n.items) {
      const keyNode = pair.key as Node | null;
      const keyAt = keyNode?.range?.[0] ?? this.at;
      const keyField = this.child(keyNode ?? undefined, this.path, keyAt);
      const key = isScalar(keyNode) ? keyNode.value : undefined;
      if (typeof key !== 'string' && typeof key !== 'number') throw keyField.error(`keys of ${what} must be plain names`);
      const name = String(key);
      const path = this.path ? `${this.path}.${name}` : name;
      if (known && !known.includes(name)) {
        const hint = didYouMean(name, known);
        throw new Field(this.source, keyNode ?? undefined, path, keyAt).error(
          `unknown key '${name}' in ${what}${hint ? ` (did you mean '${hint}'?)` : ''}; known keys: ${known.join(', ')}`,
        );
      }
      if (out.has(name)) throw new Field(this.source, keyNode ?? undefined, path, keyAt).error(`key '${name}' appears twice`);
      out.set(name, this.child((pair.value as Node | null) ?? undefined, path, keyAt));
    }
    return out;
  }

  /** Items of a sequence. */
  items(what: string): Field[] {
    const n = this.resolved();
    if (!isSeq(n)) throw this.error(`${what} must be a list, got ${this.describe()}`);
    return n.items.map((item, i) => this.child((item as Node | null) ?? undefined, `${this.path}[${i}]`, this.at));
  }

  scalar(): Scalar {
    const n = this.resolved();
    if (n === undefined) return null;
    if (!isScalar(n)) throw this.error(`expected a single value, got ${this.describe()}`);
    const v = n.value;
    if (v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') return v;
    // Custom tags (!!binary, !!timestamp...) are not part of the scenario format.
    throw this.error('values with YAML tags such as !!binary or !!timestamp are not part of the scenario format');
  }

  string(what: string): string {
    const v = this.scalar();
    if (typeof v !== 'string') throw this.error(`${what} must be a string, got ${this.describe()}`);
    return v;
  }

  /** A name that may be written as a number (seed: 42). */
  text(what: string): string {
    const v = this.scalar();
    if (typeof v === 'string') return v;
    if (typeof v === 'number' && Number.isFinite(v)) return String(v);
    throw this.error(`${what} must be a string or a number, got ${this.describe()}`);
  }

  integer(what: string, min: number): number {
    const v = this.scalar();
    if (typeof v !== 'number' || !Number.isInteger(v)) throw this.error(`${what} must be an integer, got ${this.describe()}`);
    if (v < min) throw this.error(`${what} must be at least ${min}, got ${v}`);
    if (v > Number.MAX_SAFE_INTEGER) throw this.error(`${what} is too large`);
    return v;
  }

  describe(): string {
    const n = this.resolved();
    if (n === undefined) return 'nothing';
    if (isMap(n)) return 'a mapping';
    if (isSeq(n)) return 'a list';
    const v = isScalar(n) ? n.value : undefined;
    if (v === null) return 'an empty value';
    if (typeof v === 'string') return `'${v.length > 40 ? `${v.slice(0, 40)}...` : v}'`;
    if (typeof v === 'number' || typeof v === 'boolean') return String(v);
    return 'an unsupported value';
  }
}

/** Parses YAML text; a syntax error becomes an InputError at its line and column. */
export function parseYaml(text: string, file?: string): Field {
  const lineCounter = new LineCounter();
  let doc: Document;
  try {
    doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true, strict: true });
  } catch (e) {
    // The parser reports problems in doc.errors; this only guards against the unforeseen.
    throw new InputError(`cannot parse YAML: ${(e as Error).message}`, { file });
  }
  const source: Source = { file, lineCounter, doc };
  const first = doc.errors[0];
  if (first) {
    const { line, col } = lineCounter.linePos(first.pos[0]);
    throw new InputError(`YAML syntax error: ${first.message.split('\n')[0]}`, { file, line, column: col });
  }
  const root = (doc.contents as Node | null) ?? undefined;
  return new Field(source, root, '', root?.range?.[0] ?? 0);
}
