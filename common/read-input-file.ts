// Reading a file a user named (Node only: the CLI's edge; the loaders themselves take text, so they
// also run in a browser). Every reader of user files says why a file cannot be read in the same
// words, and never with a stack trace: a missing file, a folder given for a file, a file the user
// may not read.
import { readFileSync } from 'node:fs';
import { fileErrorReason } from './file-error-reason.ts';
import { InputError } from './input-error.ts';
import { firstInvalidUtf8, lineAndColumn } from './utf8.ts';

/** The text of `path`, or an InputError naming the file: "cannot read WHAT: REASON", or naming the
 *  line and column of the first byte that is not UTF-8. `shown` is the path as the user wrote it,
 *  when `path` is that resolved against a folder. */
export function readInputFile(path: string, what: string, shown = path): string {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    throw new InputError(`cannot read ${what}: ${fileErrorReason(e, 'no such file')}`, { file: shown });
  }
  const bad = firstInvalidUtf8(bytes);
  if (bad >= 0)
    throw new InputError(
      `cannot read ${what}: byte 0x${bytes[bad].toString(16).padStart(2, '0')} is not UTF-8 (save the file as UTF-8)`,
      { file: shown, ...lineAndColumn(bytes, bad) },
    );
  return bytes.toString('utf8');
}
