// Parses YAML text into a YamlValue; any syntax error becomes an InputError at its line and column,
// naming the field it falls in.
import { LineCounter, parseDocument, type Document } from 'yaml';
import { InputError } from '../input-error.ts';
import { locateSyntaxError } from './syntax-error.ts';
import { YamlValue, type YamlSource } from './value.ts';

export function parseYaml(text: string, file?: string): YamlValue {
  const lines = new LineCounter();
  let doc: Document;
  try {
    doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true, strict: true });
  } catch (e) {
    // The parser reports problems in doc.errors; this only guards against the unforeseen.
    throw new InputError(`cannot parse YAML: ${(e as Error).message}`, { file });
  }
  const first = doc.errors[0];
  if (first) {
    const found = locateSyntaxError(doc, first);
    const { line, col } = lines.linePos(found.at);
    throw new InputError(`YAML syntax error: ${found.detail}`, { file, line, column: col, field: found.field });
  }
  // A %YAML 1.1 directive would make 010 octal, 1:30 sexagesimal and yes a boolean.
  const version = doc.directives?.yaml;
  if (version?.explicit && version.version !== '1.2') {
    const { line, col } = lines.linePos(Math.max(0, text.search(/^%YAML/m)));
    throw new InputError(`the %YAML ${version.version} directive is not supported: files are read as YAML 1.2`, {
      file,
      line,
      column: col,
    });
  }
  const source: YamlSource = { file, lines, doc };
  const root = doc.contents ?? undefined;
  return new YamlValue(source, root, '', root?.range?.[0] ?? 0);
}
