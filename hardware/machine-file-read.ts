// Reading a machine file from disk (Node only); parsing its text (machine-file.ts) also runs in
// the browser.
import { readFileSync } from 'node:fs';
import { InputError } from '../common/input-error.ts';
import { parseMachineYaml, type ParseOptions } from './machine-file.ts';
import type { MachineSpec } from './spec.ts';

/** Reads a machine file from disk; a missing or unreadable file is an InputError too. */
export function loadMachineFile(path: string, options: ParseOptions = {}): MachineSpec {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    const reason = (e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message;
    throw new InputError(`cannot read machine file: ${reason}`, { file: path });
  }
  return parseMachineYaml(text, path, options);
}
