// The built-in machines: one machine file per preset under hardware/presets/, each constant
// with its source beside it. A preset is loaded and validated exactly like a user's machine file.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { didYouMean, InputError } from '../common/input-error.ts';
import { loadMachineFile } from './machine-file-read.ts';
import type { MachineSpec } from './spec.ts';

const PRESET_DIR = fileURLToPath(new URL('./presets/', import.meta.url));

const cache = new Map<string, MachineSpec>();

/** Preset names in alphabetical order. */
export function presetNames(): string[] {
  return readdirSync(PRESET_DIR)
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => f.slice(0, -'.yaml'.length))
    .sort();
}

export function presetPath(name: string): string {
  return join(PRESET_DIR, `${name}.yaml`);
}

/**
 * Every preset's name and description. The description is read from its top-level line, without
 * loading the machine (listing every preset that way costs a tenth of a second at each start);
 * test/hardware/presets.test.ts checks it against the loaded machine's description.
 */
export function listPresets(): { name: string; description: string }[] {
  return presetNames().map((name) => ({ name, description: presetDescription(name) }));
}

function presetDescription(name: string): string {
  const line = /^description: (.*)$/m.exec(readFileSync(presetPath(name), 'utf8'));
  // A description that YAML would read differently from the plain line (quoted, continued) is loaded.
  const plain = line?.[1];
  return plain !== undefined && /^[^'"|>&*!%@`{[#]/.test(plain) && !plain.includes(' #') && !plain.includes(': ')
    ? plain
    : loadPreset(name).description;
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
