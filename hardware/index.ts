// Public API of the hardware layer: machine descriptions from presets, machine files, hwloc XML
// or the running host, all validated into one MachineSpec.

import { existsSync, statSync } from 'node:fs';
import { isHwlocExport } from '../common/paths.ts';
import { readInputFile } from '../common/read-input-file.ts';
import { extname, isAbsolute, resolve } from 'node:path';
import { importHwlocXml, type HwlocImportOptions } from './hwloc/import.ts';
import { didYouMean, InputError } from '../common/input-error.ts';
import { loadMachineFile } from './machine-file-read.ts';
import { loadPreset, presetNames } from './presets.ts';
import type { MachineSpec } from './spec.ts';
import { detectHost } from './sysfs.ts';

export * from './spec.ts';
export { InputError, didYouMean, formatInputError, type InputLocation } from '../common/input-error.ts';
export { parseMachineYaml, MACHINE_KEYS, type ParseOptions } from './machine-file.ts';
export { loadMachineFile } from './machine-file-read.ts';
export { listPresets, loadPreset, presetNames, presetPath } from './presets.ts';
export { renderMachine } from './render.ts';
export { validateMachine, MECHANISMS, type Locator } from './validate.ts';
export { importHwlocXml, type HwlocImportOptions } from './hwloc/import.ts';
export { detectHost } from './sysfs.ts';

export interface ResolveOptions extends HwlocImportOptions {
  /** Folder relative paths are taken from (a scenario file's); the working directory by default. */
  baseDir?: string;
}

/**
 * Turns what a user wrote after `--machine` (or in a scenario's `machine:`) into a MachineSpec:
 * `host`, a preset name, a machine file (.yaml/.yml) or an hwloc XML export (.xml). `hwlocMachine`
 * picks one machine of an hwloc file that holds several (see HwlocImportOptions).
 */
export function resolveMachine(ref: string, opts: ResolveOptions = {}): MachineSpec {
  const trimmed = ref.trim();
  if (trimmed === '')
    throw new InputError('empty machine reference (give a preset name, a .yaml or .xml file, or host)');
  if (trimmed === 'host') return detectHost();
  const ext = extname(trimmed).toLowerCase();
  const path = isAbsolute(trimmed) ? trimmed : resolve(opts.baseDir ?? process.cwd(), trimmed);
  if (ext === '.yaml' || ext === '.yml') return loadMachineFile(path);
  if (isHwlocExport(trimmed))
    return importHwlocXml(readInputFile(path, 'hwloc XML file'), path, { hwlocMachine: opts.hwlocMachine });
  const names = presetNames();
  if (names.includes(trimmed)) return loadPreset(trimmed);
  if (existsSync(path) && statSync(path).isDirectory())
    throw new InputError('a folder, not a machine: give a machine file (.yaml/.yml) or an hwloc XML file (.xml)', {
      file: trimmed,
    });
  const suggestion = didYouMean(trimmed, [...names, 'host']);
  const hint = suggestion ? `did you mean '${suggestion}'? ` : '';
  throw new InputError(
    `unknown machine '${trimmed}': ${hint}give a preset (${names.join(', ')}), a machine file (.yaml/.yml), an hwloc XML file (.xml) or host`,
  );
}
