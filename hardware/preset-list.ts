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
 * Every preset's name and the description its top-level line gives, undefined where that line is not
 * a plain one-line string (`plainDescription`): the caller then loads the machine.
 * test/hardware/presets.test.ts checks the lines against the loaded machines' descriptions.
 */
export function presetLines(): { name: string; description: string | undefined }[] {
  return presetNames().map((name) => ({ name, description: plainDescription(readFileSync(presetPath(name), 'utf8')) }));
}

/**
 * The description a machine file's top-level `description:` line gives, where that line is a plain
 * string on one line that YAML reads as written: no quote, block, flow, anchor, tag or key indicator
 * first, no comment, no `: ` inside, no space at its end, not a number, boolean or null, and no
 * indented line after it (which would continue it). Undefined otherwise, where the reader decides.
 */
export function plainDescription(text: string): string | undefined {
  const line = /^description: (.*)$/m.exec(text);
  const plain = line?.[1];
  if (line === null || plain === undefined) return undefined;
  const next = text.slice(line.index + line[0].length + 1).split('\n', 1)[0];
  const simple =
    /^[^-?:,'"|>&*!%@`{[\]}#\s]/.test(plain) &&
    !/\s#/.test(plain) &&
    !plain.includes(': ') &&
    !/\s$/.test(plain) &&
    !/^(?:[-+]?[\d.][\w.+-]*|true|false|null|~)$/i.test(plain) &&
    !/^[ \t]/.test(next);
  return simple ? plain : undefined;
}
