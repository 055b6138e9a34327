// Writing a file a user named (Node only: the CLI's edge), the counterpart of read-input-file.ts:
// a path that cannot take the file is the user's to fix, said in their terms and never with a stack
// trace, and a command that measures or simulates for minutes checks it before it starts.
import { existsSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { InputError } from './input-error.ts';

/** Why writing failed, in the user's terms. */
function reason(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such folder';
  if (code === 'EISDIR') return 'it is a folder, not a file';
  if (code === 'ENOTDIR') return 'a part of its path is a file, not a folder';
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') return 'permission denied';
  if (code === 'ENOSPC') return 'no space left on the device';
  return code ?? (e instanceof Error ? e.message : String(e));
}

/** Throws now what writing `path` later would: a folder in its place, or no folder to hold it.
 *  (Permissions and space are only known by writing.) */
export function checkOutputPath(path: string, what: string, field: string): void {
  if (existsSync(path) && statSync(path).isDirectory())
    throw new InputError(`cannot write ${what}: it is a folder, not a file`, { file: path, field });
  const folder = dirname(path);
  if (!existsSync(folder)) throw new InputError(`cannot write ${what}: no such folder`, { file: path, field });
  if (!statSync(folder).isDirectory())
    throw new InputError(`cannot write ${what}: a part of its path is a file, not a folder`, { file: path, field });
}

/** Runs `write` (a write of `path`), turning its failure into an InputError naming the file. */
export function writeOutput(path: string, what: string, field: string, write: () => void): void {
  try {
    write();
  } catch (e) {
    throw new InputError(`cannot write ${what}: ${reason(e)}`, { file: path, field });
  }
}

/** Writes `text` to `path`, as writeOutput says. */
export function writeOutputFile(path: string, text: string, what: string, field: string, mode?: number): void {
  writeOutput(path, what, field, () => writeFileSync(path, text, mode === undefined ? undefined : { mode }));
}
