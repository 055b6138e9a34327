// Reading a scenario file from disk (Node only); the text itself is read by loader.ts, which also
// runs in the browser.
import { resolve } from 'node:path';
import { readInputFile } from '../common/read-input-file.ts';
import { loadScenarioText, type LoadOptions } from './loader.ts';
import type { Scenario } from './scenario.ts';

export function loadScenarioFile(path: string, opts: Omit<LoadOptions, 'file'>): Scenario {
  const text = readInputFile(resolve(opts.cwd ?? process.cwd(), path), 'scenario file', path);
  return loadScenarioText(text, { ...opts, file: path });
}
