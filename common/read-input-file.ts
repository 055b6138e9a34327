// Reading a file a user named (Node only: the CLI's edge; the loaders themselves take text, so they
// also run in a browser). Every reader of user files says why a file cannot be read in the same
// words, and never with a stack trace: a missing file, a folder given for a file, a file the user
// may not read.
import { readFileSync } from 'node:fs';
import { InputError } from './input-error.ts';

/** Why reading failed, in the user's terms. */
function reason(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EISDIR') return 'it is a folder, not a file';
  if (code === 'ENOTDIR') return 'a part of its path is a file, not a folder';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  return code ?? (e instanceof Error ? e.message : String(e));
}

/** The text of `path`, or an InputError naming the file: "cannot read WHAT: REASON". `shown` is
 *  the path as the user wrote it, when `path` is that resolved against a folder. */
export function readInputFile(path: string, what: string, shown = path): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    throw new InputError(`cannot read ${what}: ${reason(e)}`, { file: shown });
  }
}
