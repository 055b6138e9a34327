// Writing a file a user named (Node only: the CLI's edge), the counterpart of read-input-file.ts:
// a path that cannot take the file is the user's to fix, said in their terms and never with a stack
// trace, and a command that measures or simulates for minutes checks it before it starts.
import { existsSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileErrorReason } from './file-error-reason.ts';
import { InputError } from './input-error.ts';

/** Throws now what writing `path` later would: a folder in its place, or no folder to hold it.
 *  (Permissions and space are only known by writing.) */
export function checkOutputPath(path: string, what: string, field: string): void {
  const folder = dirname(path);
  const code =
    existsSync(path) && statSync(path).isDirectory()
      ? 'EISDIR'
      : !existsSync(folder)
        ? 'ENOENT'
        : !statSync(folder).isDirectory()
          ? 'ENOTDIR'
          : undefined;
  if (code) throw cannotWrite(path, what, field, { code });
}

/** Throws when `path` is one of the files the command reads (its scenario, a machine file): writing
 *  it would destroy the input, and the same command run again would then read its own output. */
export function refuseInputAsOutput(path: string, inputs: readonly string[], what: string, field: string): void {
  const real = (p: string) => (existsSync(p) ? realpathSync(p) : resolve(p));
  const out = real(path);
  const input = inputs.find((i) => existsSync(i) && real(i) === out);
  if (input !== undefined)
    throw new InputError(`${what} would overwrite ${input}, which this command reads; name another file`, {
      file: path,
      field,
    });
}

/** Runs `write` (a write of `path`) and returns what it returns, turning its failure into an
 *  InputError naming the file. */
export function writeOutput<T>(path: string, what: string, field: string, write: () => T): T {
  try {
    return write();
  } catch (e) {
    throw cannotWrite(path, what, field, e);
  }
}

function cannotWrite(path: string, what: string, field: string, e: unknown): InputError {
  return new InputError(`cannot write ${what}: ${fileErrorReason(e, 'no such folder')}`, { file: path, field });
}

/** Writes `text` to `path`, as writeOutput says. */
export function writeOutputFile(path: string, text: string, what: string, field: string, mode?: number): void {
  writeOutput(path, what, field, () => writeFileSync(path, text, mode === undefined ? undefined : { mode }));
}
