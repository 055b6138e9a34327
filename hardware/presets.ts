// The built-in machines: one machine file per preset under hardware/presets/, each constant
// with its source beside it. A preset is loaded and validated exactly like a user's machine file.

import { didYouMean, InputError } from '../common/input-error.ts';
import { loadMachineFile } from './machine-file-read.ts';
import { presetLines, presetNames, presetPath } from './preset-list.ts';
import type { MachineSpec } from './spec.ts';

export { presetNames, presetPath } from './preset-list.ts';

const cache = new Map<string, MachineSpec>();

/**
 * Every preset's name and description. The description is read from its top-level line, without
 * loading the machine (listing every preset that way costs a tenth of a second at each start),
 * unless YAML would read that line otherwise.
 */
export function listPresets(): { name: string; description: string }[] {
  return presetLines().map(({ name, description }) => ({
    name,
    description: description ?? loadPreset(name).description,
  }));
}

/** A fresh copy of the preset's MachineSpec, so a caller may modify it freely. */
export function loadPreset(name: string): MachineSpec {
  const names = presetNames();
  if (!names.includes(name)) {
    const suggestion = didYouMean(name, names);
    const hint = suggestion ? ` (did you mean '${suggestion}'?)` : ` (known presets: ${names.join(', ')})`;
    throw new InputError(`unknown preset '${name}'${hint}`);
  }
  let spec = cache.get(name);
  if (!spec) {
    spec = loadMachineFile(presetPath(name), { origin: `preset:${name}` });
    cache.set(name, spec);
  }
  return structuredClone(spec);
}
