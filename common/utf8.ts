// Where a file's bytes stop being UTF-8. Node's decoder replaces a byte it cannot read with U+FFFD
// and goes on, so two values that differ only in such bytes (a Latin-1 "é" and "è") would read alike;
// the readers of user files refuse the file instead, at the first byte that is not UTF-8.

/** The offset of the first byte of `bytes` that is not part of a valid UTF-8 sequence, or -1. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  for (let i = 0; i < bytes.length;) {
    const b = bytes[i];
    if (b < 0x80) {
      i++;
      continue;
    }
    // Lead byte: how many continuation bytes follow, and the range the first of them must lie in
    // (which excludes overlong forms, surrogates and code points above U+10FFFF: RFC 3629, §4).
    let more: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) more = 1;
    else if (b >= 0xe0 && b <= 0xef) {
      more = 2;
      if (b === 0xe0) lo = 0xa0;
      if (b === 0xed) hi = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      more = 3;
      if (b === 0xf0) lo = 0x90;
      if (b === 0xf4) hi = 0x8f;
    } else return i;
    for (let k = 1; k <= more; k++) {
      const c = bytes[i + k];
      if (c === undefined || c < (k === 1 ? lo : 0x80) || c > (k === 1 ? hi : 0xbf)) return i;
    }
    i += more + 1;
  }
  return -1;
}

/** Line and column (from 1, the column in bytes) of `offset` in `bytes`. */
export function lineAndColumn(bytes: Uint8Array, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset; i++)
    if (bytes[i] === 0x0a) {
      line++;
      lineStart = i + 1;
    }
  return { line, column: offset - lineStart + 1 };
}
