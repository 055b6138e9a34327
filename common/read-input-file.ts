// Reading a file a user named (Node only: the CLI's edge; the loaders themselves take text, so they
// also run in a browser). Every reader of user files says why a file cannot be read in the same
// words, and never with a stack trace: a missing file, a folder given for a file, a file the user
// may not read.
import { readFileSync } from 'node:fs';
import { fileErrorReason } from './file-error-reason.ts';
import { InputError } from './input-error.ts';

/** The text of `path`, or an InputError naming the file: "cannot read WHAT: REASON". `shown` is
 *  the path as the user wrote it, when `path` is that resolved against a folder. */
export function readInputFile(path: string, what: string, shown = path): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    throw new InputError(`cannot read ${what}: ${fileErrorReason(e, 'no such file')}`, { file: shown });
  }
}
