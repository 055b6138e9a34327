// Reading a scenario file from disk (Node only); the text itself is read by loader.ts, which also
// runs in the browser.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { InputError } from '../common/input-error.ts';
import { loadScenarioText, type LoadOptions } from './loader.ts';
import type { Scenario } from './scenario.ts';

export function loadScenarioFile(path: string, opts: Omit<LoadOptions, 'file'>): Scenario {
  let text: string;
  try {
    text = readFileSync(resolve(opts.cwd ?? process.cwd(), path), 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new InputError(
      code === 'ENOENT' ? 'no such scenario file' : `cannot read scenario file (${code ?? (e as Error).message})`,
      { file: path },
    );
  }
  return loadScenarioText(text, { ...opts, file: path });
}
