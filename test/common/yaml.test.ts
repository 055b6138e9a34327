import { describe, expect, it } from 'vitest';
import { parseYaml } from '../../common/yaml/parse.ts';
import { inputErrorOf } from '../helpers/input-error.ts';

const syntaxError = (text: string) => inputErrorOf(() => parseYaml(text, 'f.yaml'));

describe('parseYaml: syntax errors point where the mistake is and name its field', () => {
  it('an unclosed flow list at the end of the file', () => {
    const e = syntaxError('name: x\nsizes: [1KiB, 2KiB\n');
    expect(e.location).toEqual({ file: 'f.yaml', line: 2, column: 8, field: 'sizes' });
    expect(e.message).toBe("f.yaml:2:8 (sizes): YAML syntax error: the list opened here is not closed with ']'");
  });

  it('an unclosed flow list followed by another key', () => {
    const e = syntaxError('name: x\nsizes: [1KiB, 2KiB\nranks: 4\n');
    expect(e.location).toEqual({ file: 'f.yaml', line: 2, column: 8, field: 'sizes' });
  });

  it('an unclosed flow mapping, nested', () => {
    const e = syntaxError('algorithms:\n  - linear\n  - { name: tree, params: { depth: 2 }\nsizes: 1KiB\n');
    expect(e.location).toMatchObject({ line: 3, column: 5, field: 'algorithms[1]' });
    expect(e.detail).toBe("YAML syntax error: the mapping opened here is not closed with '}'");
  });

  it('an unclosed quote', () => {
    const e = syntaxError('name: x\ndescription: "half a sentence\nranks: 4\n');
    expect(e.location).toMatchObject({ line: 2, column: 14, field: 'description' });
    expect(e.detail).toBe('YAML syntax error: the quoted string opened here is not closed with "');
  });

  it('a duplicate key names the key, at the second occurrence', () => {
    const e = syntaxError('a:\n  b: 1\n  b: 2\n');
    expect(e.location).toEqual({ file: 'f.yaml', line: 3, column: 3, field: 'a.b' });
    expect(e.detail).toBe('YAML syntax error: Map keys must be unique');
  });

  it('an error outside any value names no field', () => {
    const e = syntaxError('a: 1\n---\nb: 2\n');
    expect(e.location).toMatchObject({ line: 2, column: 1 });
    expect(e.location.field).toBeUndefined();
  });
});

describe('YamlValue: one reader for both formats', () => {
  it('names the value in prose when given `what`, and says what was expected otherwise', () => {
    const root = parseYaml('n: 2.5\ns: [1]\n', 'f.yaml').entries('the file');
    expect(inputErrorOf(() => root.get('n')!.integer(1, 'ranks')).message).toBe(
      'f.yaml:1:4 (n): ranks must be an integer, got 2.5',
    );
    expect(inputErrorOf(() => root.get('n')!.integer(1)).message).toBe(
      'f.yaml:1:4 (n): expected an integer >= 1, got 2.5',
    );
    expect(inputErrorOf(() => root.get('n')!.string('name')).detail).toBe('name must be a string, got 2.5');
    expect(inputErrorOf(() => root.get('n')!.boolean()).detail).toBe('expected true or false, got 2.5');
    expect(inputErrorOf(() => root.get('s')!.text()).detail).toBe('expected a string, got a list');
  });

  it('rejects unknown keys with a suggestion, in either style', () => {
    const doc = parseYaml('rank: 4\n', 'f.yaml');
    expect(inputErrorOf(() => doc.entries('the scenario', ['ranks', 'sizes'])).detail).toBe(
      "unknown key 'rank' in the scenario (did you mean 'ranks'?); known keys: ranks, sizes",
    );
    expect(inputErrorOf(() => doc.map(['ranks', 'sizes'])).detail).toBe("unknown key 'rank' (did you mean 'ranks'?)");
    expect(inputErrorOf(() => doc.map(['zzzzz'])).detail).toBe("unknown key 'rank' (known keys: zzzzz)");
  });

  it('tells a written empty value from an absent key', () => {
    const m = parseYaml('a:\nb: 1\n', 'f.yaml');
    const entries = m.entries();
    expect(entries.get('a')!.present).toBe(true);
    expect(entries.get('a')!.filled).toBe(false);
    const reader = m.map(['a', 'b', 'c']);
    expect(reader.has('a')).toBe(false);
    expect(reader.req('b').number()).toBe(1);
    expect(inputErrorOf(() => reader.req('c')).message).toBe("f.yaml:1:1 (c): missing required field 'c'");
  });

  it('follows aliases like copies', () => {
    const m = parseYaml('base: &b { x: 1 }\ncopy: *b\n', 'f.yaml').map(['base', 'copy']);
    expect(m.req('copy').map(['x']).req('x').integer(0)).toBe(1);
  });

  it('refuses a key written with no value at all, in flow style or as a complex key', () => {
    for (const [text, field, line] of [
      ['sweep: { ranks }\n', 'sweep.ranks', 1],
      ['name: x\n? iterations\n', 'iterations', 2],
      ['algorithms: [{ name: basic, label }]\n', 'algorithms[0].label', 1],
    ] as const) {
      const walk = (v: ReturnType<typeof parseYaml>): void => {
        if (v.kind() === 'map') for (const child of v.entries().values()) walk(child);
        if (v.kind() === 'seq') for (const child of v.items()) walk(child);
      };
      const e = inputErrorOf(() => walk(parseYaml(text, 'f.yaml')));
      expect(e.location).toMatchObject({ line, field });
      expect(e.detail).toMatch(/has no value: write '\w+: VALUE'/);
    }
  });

  it('refuses tags, known or not, where a value is read', () => {
    const doc = parseYaml('a: !custom [1]\nb: !!float 3\nc: !!binary aGk=\n', 'f.yaml').map(['a', 'b', 'c']);
    expect(inputErrorOf(() => doc.req('a').items()).detail).toBe('YAML tags are not supported (found !custom)');
    expect(inputErrorOf(() => doc.req('b').number()).detail).toBe('YAML tags are not supported (found !!float)');
    expect(inputErrorOf(() => doc.req('c').scalar()).detail).toBe('YAML tags are not supported (found !!binary)');
  });

  it('refuses a %YAML directive other than 1.2, at its line', () => {
    const e = inputErrorOf(() => parseYaml('# a comment\n%YAML 1.1\n---\nranks: 010\n', 'f.yaml'));
    expect(e.message).toBe('f.yaml:2:1: the %YAML 1.1 directive is not supported: files are read as YAML 1.2');
    expect(parseYaml('%YAML 1.2\n---\nranks: 010\n', 'f.yaml').map(['ranks']).req('ranks').number()).toBe(10);
  });

  it('reads a name written as a number as its text, and refuses one the number would change', () => {
    const doc = parseYaml('a: 7742\nb: 1.10\nc: 010\nd: 1e3\ne: "1.10"\n', 'f.yaml').map(['a', 'b', 'c', 'd', 'e']);
    expect(doc.req('a').text()).toBe('7742');
    expect(doc.req('e').text()).toBe('1.10');
    expect(inputErrorOf(() => doc.req('b').text('name')).message).toBe(
      "f.yaml:2:4 (b): write '1.10' in quotes: unquoted, it reads as the number 1.1",
    );
    expect(inputErrorOf(() => doc.req('c').text()).detail).toMatch(/write '010' in quotes/);
    expect(inputErrorOf(() => doc.req('d').text()).detail).toMatch(/reads as the number 1000/);
  });

  it('refuses a merge key, which YAML 1.2 does not have', () => {
    const doc = parseYaml('base: &b { x: 1 }\ncopy: { <<: *b, y: 2 }\n', 'f.yaml').map(['base', 'copy']);
    expect(inputErrorOf(() => doc.req('copy').map(['x', 'y'])).message).toBe(
      'f.yaml:2:9 (copy.<<): merge keys (<<: *anchor) are not supported: write the keys out, or alias a whole value',
    );
  });
});
