// Names a report prints on one line.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isControl, onOneLine } from '../../common/printable.ts';

describe('names on one line', () => {
  it('leaves no control character, keeps every other one in order, and changes printable text not at all', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const line = onOneLine(text);
        expect([...line].some((ch) => isControl(ch.codePointAt(0)!))).toBe(false);
        const kept = [...text].filter((ch) => !isControl(ch.codePointAt(0)!)).join('');
        expect(line.replaceAll(' ', '')).toBe(kept.replaceAll(' ', ''));
        if (kept === text) expect(line).toBe(text);
      }),
    );
    expect(onOneLine('\tnode\ta\n\nb\n')).toBe('node a b');
  });
});
