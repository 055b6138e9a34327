// A small XML reader for hwloc topology files. hwloc XML uses only elements, attributes, text and
// the usual prolog (declaration, DOCTYPE, comments), so a hand-written reader is enough and keeps
// the project free of a parser dependency. Every element remembers where it started so that an
// importer can name file:line:column in its errors.
import { InputError } from '../../common/input-error.ts';
import { ownEntry } from '../../common/own-key.ts';

export interface XmlElement {
  name: string;
  attrs: Map<string, string>;
  children: XmlElement[];
  /** Concatenated text directly inside this element (entities decoded). */
  text: string;
  line: number;
  column: number;
}

const NAME_START = /[A-Za-z_:]/;
const NAME_CHAR = /[A-Za-z0-9_:.-]/;

class Cursor {
  pos = 0;
  line = 1;
  column = 1;
  constructor(
    readonly text: string,
    readonly file: string,
  ) {}

  get done(): boolean {
    return this.pos >= this.text.length;
  }
  peek(offset = 0): string {
    return this.text[this.pos + offset] ?? '';
  }
  startsWith(s: string): boolean {
    return this.text.startsWith(s, this.pos);
  }
  advance(n = 1): void {
    for (let i = 0; i < n && this.pos < this.text.length; i++) {
      if (this.text[this.pos] === '\n') {
        this.line++;
        this.column = 1;
      } else {
        this.column++;
      }
      this.pos++;
    }
  }
  skipSpace(): void {
    while (!this.done && /\s/.test(this.peek())) this.advance();
  }
  fail(detail: string, line = this.line, column = this.column): never {
    throw new InputError(detail, { file: this.file, line, column });
  }
  /** Advances past the next occurrence of `end`, failing with `what` if there is none. */
  skipPast(end: string, what: string): string {
    const at = this.text.indexOf(end, this.pos);
    if (at < 0) this.fail(`unterminated ${what}`);
    const body = this.text.slice(this.pos, at);
    this.advance(at + end.length - this.pos);
    return body;
  }
}

/** Parses an XML document and returns its root element. Throws InputError on malformed input. */
export function parseXml(text: string, file: string): XmlElement {
  const cur = new Cursor(text.startsWith('\uFEFF') ? text.slice(1) : text, file);
  cur.skipSpace();
  if (cur.done) cur.fail('file is empty, expected hwloc XML');
  if (cur.peek() !== '<') cur.fail('not an XML file (expected hwloc XML, which starts with "<")');
  skipMisc(cur);
  if (cur.done) cur.fail('XML document has no root element');
  const root = parseElement(cur);
  skipMisc(cur);
  if (!cur.done) cur.fail('unexpected content after the root element');
  return root;
}

/** Skips declarations, DOCTYPE, comments, processing instructions and whitespace between elements. */
function skipMisc(cur: Cursor): void {
  for (;;) {
    cur.skipSpace();
    if (cur.startsWith('<?')) cur.skipPast('?>', 'XML declaration');
    else if (cur.startsWith('<!--')) cur.skipPast('-->', 'comment');
    else if (cur.startsWith('<!')) skipDoctype(cur);
    else if (!cur.done && cur.peek() !== '<') cur.fail('text outside the root element');
    else return;
  }
}

function skipDoctype(cur: Cursor): void {
  // A DOCTYPE may carry an internal subset in brackets: track nesting so '>' inside it is skipped.
  let depth = 0;
  const line = cur.line;
  const column = cur.column;
  while (!cur.done) {
    const c = cur.peek();
    cur.advance();
    if (c === '[') depth++;
    else if (c === ']') depth--;
    else if (c === '>' && depth <= 0) return;
  }
  cur.fail('unterminated DOCTYPE', line, column);
}

function parseName(cur: Cursor, what: string): string {
  if (!NAME_START.test(cur.peek())) cur.fail(`expected ${what}`);
  const start = cur.pos;
  while (!cur.done && NAME_CHAR.test(cur.peek())) cur.advance();
  return cur.text.slice(start, cur.pos);
}

function parseElement(cur: Cursor): XmlElement {
  const line = cur.line;
  const column = cur.column;
  cur.advance(); // '<'
  const name = parseName(cur, 'an element name after "<"');
  const element: XmlElement = { name, attrs: new Map(), children: [], text: '', line, column };
  for (;;) {
    const before = cur.pos;
    cur.skipSpace();
    if (cur.done) cur.fail(`unterminated start tag <${name}>`, line, column);
    if (cur.startsWith('/>')) {
      cur.advance(2);
      return element;
    }
    if (cur.peek() === '>') {
      cur.advance();
      break;
    }
    if (cur.pos === before) cur.fail(`expected whitespace, "/>" or ">" in <${name}>`);
    const attrLine = cur.line;
    const attrColumn = cur.column;
    const attr = parseName(cur, `an attribute name in <${name}>`);
    cur.skipSpace();
    if (cur.peek() !== '=') cur.fail(`expected "=" after attribute ${attr}`);
    cur.advance();
    cur.skipSpace();
    const quote = cur.peek();
    if (quote !== '"' && quote !== "'") cur.fail(`expected a quoted value for attribute ${attr}`);
    cur.advance();
    const valueLine = cur.line;
    const valueColumn = cur.column;
    const end = cur.text.indexOf(quote, cur.pos);
    if (end < 0) cur.fail(`unterminated value of attribute ${attr}`, valueLine, valueColumn);
    const raw = cur.text.slice(cur.pos, end);
    if (raw.includes('<')) cur.fail(`"<" inside the value of attribute ${attr}`, valueLine, valueColumn);
    const value = decodeEntities(raw, cur, valueLine, valueColumn);
    cur.advance(end + 1 - cur.pos);
    if (element.attrs.has(attr)) cur.fail(`attribute ${attr} appears twice in <${name}>`, attrLine, attrColumn);
    element.attrs.set(attr, value);
  }
  parseContent(cur, element);
  return element;
}

function parseContent(cur: Cursor, element: XmlElement): void {
  const text: string[] = [];
  for (;;) {
    if (cur.done) cur.fail(`element <${element.name}> is never closed`, element.line, element.column);
    if (cur.startsWith('</')) {
      const line = cur.line;
      const column = cur.column;
      cur.advance(2);
      const name = parseName(cur, 'an element name after "</"');
      cur.skipSpace();
      if (cur.peek() !== '>') cur.fail(`expected ">" to end </${name}`);
      cur.advance();
      if (name !== element.name) {
        cur.fail(
          `closing tag </${name}> does not match <${element.name}> opened at line ${element.line}`,
          line,
          column,
        );
      }
      element.text = text.join('');
      return;
    }
    if (cur.startsWith('<!--')) cur.skipPast('-->', 'comment');
    else if (cur.startsWith('<![CDATA[')) {
      cur.advance(9);
      text.push(cur.skipPast(']]>', 'CDATA section'));
    } else if (cur.startsWith('<?')) cur.skipPast('?>', 'processing instruction');
    else if (cur.peek() === '<') element.children.push(parseElement(cur));
    else {
      const line = cur.line;
      const column = cur.column;
      const next = cur.text.indexOf('<', cur.pos);
      const end = next < 0 ? cur.text.length : next;
      const raw = cur.text.slice(cur.pos, end);
      text.push(decodeEntities(raw, cur, line, column));
      cur.advance(end - cur.pos);
    }
  }
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decodeEntities(raw: string, cur: Cursor, line: number, column: number): string {
  if (!raw.includes('&')) return raw;
  return raw.replace(/&([^;&\s]*);?/g, (match, body: string) => {
    if (!match.endsWith(';')) cur.fail(`unterminated entity "${match}"`, line, column);
    const named = ownEntry(NAMED, body);
    if (named !== undefined) return named;
    const code = /^#x[0-9a-fA-F]+$/.test(body)
      ? parseInt(body.slice(2), 16)
      : /^#[0-9]+$/.test(body)
        ? parseInt(body.slice(1), 10)
        : NaN;
    if (!Number.isFinite(code) || code > 0x10ffff) cur.fail(`unknown entity "${match}"`, line, column);
    return String.fromCodePoint(code);
  });
}
