// A thin, position-aware view over a parsed YAML document. Every accessor knows the field path and
// source position of the node it reads, so a wrong value is reported as file:line:column (field).
// Unknown keys are errors: a misspelt key silently dropped would change the machine without a word.

import { isAlias, isMap, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node } from 'yaml';
import { didYouMean, InputError, type InputLocation } from '../../common/input-error.ts';

export interface ReaderContext {
  file: string;
  doc: Document;
  lines: LineCounter;
}

/** Parses YAML text, turning syntax errors (and duplicate keys) into an InputError at their position. */
export function openYaml(text: string, file: string): YNode {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true, prettyErrors: true });
  const problem = doc.errors[0];
  if (problem) {
    const pos = problem.linePos?.[0];
    const detail = `invalid YAML: ${problem.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '')}`;
    throw new InputError(detail, { file, line: pos?.line, column: pos?.col });
  }
  const ctx: ReaderContext = { file, doc, lines };
  return new YNode(ctx, doc.contents ?? undefined, '', undefined);
}

export class YNode {
  constructor(
    readonly ctx: ReaderContext,
    private readonly raw: unknown,
    /** Field path in the document, e.g. "packages[0].caches[1].size". */
    readonly path: string,
    /** Where to point when this node has no position of its own (a missing value). */
    private readonly fallback: InputLocation | undefined,
  ) {}

  private get node(): unknown {
    return isAlias(this.raw) ? this.raw.resolve(this.ctx.doc) : this.raw;
  }

  get present(): boolean {
    const n = this.node;
    return n !== undefined && n !== null && !(isScalar(n) && n.value === null);
  }

  location(): InputLocation {
    const range = (this.raw as Node | undefined)?.range;
    if (range) {
      const pos = this.ctx.lines.linePos(range[0]);
      return { file: this.ctx.file, line: pos.line, column: pos.col, field: this.path || undefined };
    }
    return { ...(this.fallback ?? { file: this.ctx.file }), field: this.path || undefined };
  }

  fail(detail: string): never {
    throw new InputError(detail, this.location());
  }

  private child(raw: unknown, path: string): YNode {
    return new YNode(this.ctx, raw, path, this.location());
  }

  isMap(): boolean {
    return isMap(this.node);
  }

  isList(): boolean {
    return isSeq(this.node);
  }

  isScalar(): boolean {
    return isScalar(this.node);
  }

  /** Opens a mapping whose keys must all be in `known`. */
  map(known: readonly string[]): MapReader {
    const n = this.node;
    if (!isMap(n)) this.fail(`expected a mapping with keys ${known.join(', ')}, got ${this.describe()}`);
    const entries = new Map<string, YNode>();
    for (const pair of n.items) {
      const key = isScalar(pair.key) ? pair.key.value : undefined;
      const keyNode: YNode = this.child(pair.key, this.path);
      if (typeof key !== 'string') keyNode.fail('keys must be plain names');
      const path = this.path ? `${this.path}.${key}` : key;
      if (!known.includes(key)) {
        const suggestion = didYouMean(key, known);
        const hint = suggestion ? ` (did you mean '${suggestion}'?)` : ` (known keys: ${known.join(', ')})`;
        new YNode(this.ctx, pair.key, path, this.location()).fail(`unknown key '${key}'${hint}`);
      }
      entries.set(key, new YNode(this.ctx, pair.value, path, keyNode.location()));
    }
    return new MapReader(this, entries);
  }

  /** A mapping whose keys are data (route keys, kernel parameters) rather than schema. */
  entries(): [string, YNode][] {
    const n = this.node;
    if (!isMap(n)) this.fail(`expected a mapping, got ${this.describe()}`);
    return n.items.map((pair) => {
      const key = isScalar(pair.key) ? pair.key.value : undefined;
      const keyNode: YNode = this.child(pair.key, this.path);
      if (typeof key !== 'string') keyNode.fail('keys must be plain names');
      return [key, new YNode(this.ctx, pair.value, this.path ? `${this.path}.${key}` : key, keyNode.location())];
    });
  }

  list(): YNode[] {
    const n = this.node;
    if (!isSeq(n)) this.fail(`expected a list, got ${this.describe()}`);
    return n.items.map((item, i) => this.child(item, `${this.path}[${i}]`));
  }

  /** The scalar's value (number, string, boolean), or a failure naming what was expected. */
  scalar(expected: string): unknown {
    const n = this.node;
    if (!isScalar(n) || n.value === null || n.value === undefined) this.fail(`expected ${expected}, got ${this.describe()}`);
    return n.value;
  }

  string(): string {
    const v = this.scalar('a string');
    if (typeof v === 'number' || typeof v === 'boolean') return String(v);
    if (typeof v !== 'string') this.fail(`expected a string, got ${this.describe()}`);
    return v;
  }

  number(): number {
    const v = this.scalar('a number');
    if (typeof v !== 'number' || !Number.isFinite(v)) this.fail(`expected a finite number, got ${this.describe()}`);
    return v;
  }

  integer(min = 0): number {
    const v = this.number();
    if (!Number.isInteger(v) || v < min) this.fail(`expected an integer >= ${min}, got ${v}`);
    return v;
  }

  boolean(): boolean {
    const v = this.scalar('true or false');
    if (typeof v !== 'boolean') this.fail(`expected true or false, got ${this.describe()}`);
    return v;
  }

  oneOf<T extends string>(choices: readonly T[]): T {
    const v = this.string();
    if (!(choices as readonly string[]).includes(v)) {
      const suggestion = didYouMean(v, choices);
      this.fail(`'${v}' is not one of ${choices.join(', ')}${suggestion ? ` (did you mean '${suggestion}'?)` : ''}`);
    }
    return v as T;
  }

  describe(): string {
    const n = this.node;
    if (n === undefined || n === null || (isScalar(n) && n.value === null)) return 'nothing';
    if (isMap(n)) return 'a mapping';
    if (isSeq(n)) return 'a list';
    if (isScalar(n)) return typeof n.value === 'string' ? `'${n.value}'` : String(n.value);
    return 'an unsupported YAML value';
  }
}

export class MapReader {
  constructor(
    readonly owner: YNode,
    private readonly entries: Map<string, YNode>,
  ) {}

  has(key: string): boolean {
    return this.entries.get(key)?.present ?? false;
  }

  get(key: string): YNode | undefined {
    const entry = this.entries.get(key);
    return entry?.present ? entry : undefined;
  }

  req(key: string): YNode {
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
