// Where a YAML syntax error belongs. The parser reports an unclosed `[`, `{` or quote where it
// gives up, which is the start of the next line or key, one line after the mistake; the user needs
// the line where the value opened and the field it is the value of.
import { isMap, isPair, isScalar, isSeq, Scalar, type Document, type Node, type YAMLError } from 'yaml';

export interface SyntaxErrorSite {
  /** Offset in the text to point at. */
  at: number;
  field: string | undefined;
  detail: string;
}

interface Located {
  node: Node;
  path: string;
}

export function locateSyntaxError(doc: Document, error: YAMLError): SyntaxErrorSite {
  const pos = error.pos[0];
  const parserDetail =
    error.code === 'MULTIPLE_DOCS'
      ? "a second document starts here ('---'): a file holds one document"
      : error.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
  const root = doc.contents ?? undefined;
  if (!root) return { at: pos, field: undefined, detail: parserDetail };

  if (error.code === 'DUPLICATE_KEY') {
    const key = keyAt(root, '', pos);
    return { at: pos, field: key, detail: parserDetail };
  }

  const inner = innermost(root, '', pos);
  if (inner) {
    const unclosed = unclosedOpening(inner.node, error, pos);
    if (unclosed) return { at: inner.node.range![0], field: inner.path || undefined, detail: unclosed };
  }
  return { at: pos, field: inner?.path || undefined, detail: parserDetail };
}

/** The deepest node whose value spans `pos` (a node that stops right at `pos` counts: it was cut short there). */
function innermost(node: Node, path: string, pos: number): Located | undefined {
  const range = node.range;
  if (!range || pos < range[0] || pos > range[1]) return undefined;
  for (const [childPath, child] of children(node, path)) {
    const found = innermost(child, childPath, pos);
    if (found) return found;
  }
  return { node, path };
}

function keyAt(node: Node, path: string, pos: number): string | undefined {
  if (isMap(node)) {
    for (const pair of node.items) {
      const key = pair.key as Node | null;
      if (isScalar(key) && key.range?.[0] === pos) return join(path, String(key.value));
    }
  }
  for (const [childPath, child] of children(node, path)) {
    const found = keyAt(child, childPath, pos);
    if (found) return found;
  }
  return undefined;
}

function children(node: Node, path: string): [string, Node][] {
  const out: [string, Node][] = [];
  if (isMap(node)) {
    for (const pair of node.items) {
      if (!isPair(pair) || !pair.value) continue;
      const key = isScalar(pair.key) ? String(pair.key.value) : '?';
      out.push([join(path, key), pair.value as Node]);
    }
  } else if (isSeq(node)) {
    node.items.forEach((item, i) => {
      if (item) out.push([`${path}[${i}]`, item as Node]);
    });
  }
  return out;
}

function join(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

/** A flow list, flow mapping or quoted string that the parser found running into `pos` unclosed. */
function unclosedOpening(node: Node, error: YAMLError, pos: number): string | undefined {
  if (node.range![1] !== pos) return undefined;
  // The parser's own words say which closing mark it missed; the node says where it opened.
  const said = error.message;
  if (isSeq(node) && node.flow && /Flow sequence .*end with a \]/.test(said))
    return "the list opened here is not closed with ']'";
  if (isMap(node) && node.flow && /Flow map .*end with a \}/.test(said))
    return "the mapping opened here is not closed with '}'";
  if (isScalar(node) && error.code === 'MISSING_CHAR') {
    if (node.type === Scalar.QUOTE_DOUBLE) return 'the quoted string opened here is not closed with "';
    if (node.type === Scalar.QUOTE_SINGLE) return "the quoted string opened here is not closed with '";
  }
  return undefined;
}
