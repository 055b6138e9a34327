// Files a user names must be UTF-8: a byte that is not is refused where it is, never replaced.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readInputFile } from '../../common/read-input-file.ts';
import { firstInvalidUtf8, lineAndColumn } from '../../common/utf8.ts';

describe('UTF-8 in files a user names', () => {
  it('finds no invalid byte in any text Node encodes as UTF-8', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (text) => {
        expect(firstInvalidUtf8(Buffer.from(text, 'utf8'))).toBe(-1);
      }),
    );
  });

  it('finds the first byte Node would replace with U+FFFD, wherever it is', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), (bytes) => {
        const bad = firstInvalidUtf8(bytes);
        // Valid up to `bad` (the decoder keeps every byte), and not valid through it.
        const decodes = (b: Uint8Array) => {
          try {
            new TextDecoder('utf-8', { fatal: true }).decode(b);
            return true;
          } catch {
            return false;
          }
        };
        if (bad < 0) expect(decodes(bytes)).toBe(true);
        else {
          expect(decodes(bytes.subarray(0, bad))).toBe(true);
          expect(decodes(bytes)).toBe(false);
        }
      }),
      { numRuns: 2000 },
    );
    // Overlong forms, surrogates, beyond U+10FFFF and truncated sequences.
    for (const bytes of [
      [0xc0, 0xaf],
      [0xe0, 0x80, 0xaf],
      [0xed, 0xa0, 0x80],
      [0xf4, 0x90, 0x80, 0x80],
      [0x41, 0xe2, 0x82],
    ])
      expect(firstInvalidUtf8(Uint8Array.from(bytes)), bytes.join(' ')).toBe(bytes[0] === 0x41 ? 1 : 0);
  });

  it('gives the line and column of an offset', () => {
    const bytes = Buffer.from('ab\ncdé\nf', 'utf8');
    expect(lineAndColumn(bytes, 0)).toEqual({ line: 1, column: 1 });
    expect(lineAndColumn(bytes, 4)).toEqual({ line: 2, column: 2 });
    expect(lineAndColumn(bytes, 8)).toEqual({ line: 3, column: 1 });
  });

  it('refuses a Latin-1 file at its first such byte, naming file, line and column', () => {
    const dir = mkdtempSync(join(tmpdir(), 'intranode-utf8-'));
    const path = join(dir, 'latin1.yaml');
    writeFileSync(path, Buffer.concat([Buffer.from('name: ok\nseed: caf'), Buffer.from([0xe9]), Buffer.from('\n')]));
    expect(() => readInputFile(path, 'scenario file', 'latin1.yaml')).toThrow(
      'latin1.yaml:2:10: cannot read scenario file: byte 0xe9 is not UTF-8 (save the file as UTF-8)',
    );
    writeFileSync(path, 'name: café\n');
    expect(readInputFile(path, 'scenario file')).toBe('name: café\n');
  });
});
