// Text a report prints on its lines: a control character (a line break, a tab) in a name or a label
// would split the report's header lines and table columns.

/** Whether the code point is a control character (C0, DEL, C1) or a Unicode line or paragraph
 *  separator. */
export function isControl(code: number): boolean {
  return code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029;
}

/** `text` with each run of control characters made one space: for names taken from elsewhere (a
 *  file's name, the host name an hwloc file records), which a report prints on one line. */
export function onOneLine(text: string): string {
  let out = '';
  let gap = false;
  for (const ch of text) {
    if (isControl(ch.codePointAt(0)!)) gap = true;
    else {
      if (gap && out !== '') out += ' ';
      gap = false;
      out += ch;
    }
  }
  return out;
}
