// The built-in machines by name, and each one's description as its file's top-level line says it:
// what listing the presets needs, without the machine-file reader (and the YAML parser under it),
// which `intranode machines` would otherwise load at every start for nothing.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PRESET_DIR = fileURLToPath(new URL('./presets/', import.meta.url));

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
 * Every preset's name and the description its top-level line gives, undefined where YAML would read
 * that line otherwise (quoted, continued, with a comment): the caller then loads the machine.
 * test/hardware/presets.test.ts checks the lines against the loaded machines' descriptions.
 */
export function presetLines(): { name: string; description: string | undefined }[] {
  return presetNames().map((name) => ({ name, description: plainDescription(readFileSync(presetPath(name), 'utf8')) }));
}

/** The description a machine file's top-level `description:` line gives, where YAML reads it as
 *  written; undefined otherwise. */
export function plainDescription(text: string): string | undefined {
  const plain = /^description: (.*)$/m.exec(text)?.[1];
  return plain !== undefined && /^[^'"|>&*!%@`{[#]/.test(plain) && !plain.includes(' #') && !plain.includes(': ')
    ? plain
    : undefined;
}
