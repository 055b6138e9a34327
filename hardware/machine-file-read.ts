// Reading a machine file from disk (Node only); parsing its text (machine-file.ts) also runs in
// the browser.
import { readInputFile } from '../common/read-input-file.ts';
import { parseMachineYaml, type ParseOptions } from './machine-file.ts';
import type { MachineSpec } from './spec.ts';

/** Reads a machine file from disk; a missing or unreadable file is an InputError too. */
export function loadMachineFile(path: string, options: ParseOptions = {}): MachineSpec {
  return parseMachineYaml(readInputFile(path, 'machine file'), path, options);
}
