// The machine of the scale benchmark: 16 sockets × 64 cores, no real product. Built from the Genoa
// preset's constants (cores, caches, memory, one xGMI link's bandwidth and latency), with sixteen
// sockets, 64 cores each, and a link between every two sockets, so that only the size differs from a
// machine the model describes from sources.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { presetPath } from '../../hardware/presets.ts';

const SOCKETS = 16;
const CORES = 64;

/** Writes the machine file into `dir` and returns its path. */
export function writeScaleMachine(dir: string): string {
  const genoa = readFileSync(presetPath('epyc-genoa'), 'utf8');
  const link = /^ {4}bandwidth: (\S+)[^\n]*\n {4}latency: (\S+)/m.exec(genoa.slice(genoa.indexOf('\nlinks:')));
  if (!link) throw new Error('scale machine: the Genoa preset has no link bandwidth and latency to copy');
  const links: string[] = [];
  for (let a = 0; a < SOCKETS; a++)
    for (let b = a + 1; b < SOCKETS; b++)
      links.push(`  - between: [pkg${a}, pkg${b}]\n    bandwidth: ${link[1]}\n    latency: ${link[2]}`);
  const text = genoa
    .replace(/^name: .*$/m, 'name: scale-16x64')
    .replace(
      /^description: .*$/m,
      `description: ${SOCKETS} x ${CORES}-core sockets with the Genoa preset's constants, fully linked (scale benchmark)`,
    )
    .replace(/^( {2}- count: )2\b/m, `$1${SOCKETS}`)
    .replace(/^( {4}cores: )96\b/m, `$1${CORES}`)
    .replace(/\nlinks:\n(?: {2}.*\n| {4}.*\n)*/, `\nlinks:\n${links.join('\n')}\n`);
  const path = join(dir, 'scale-16x64.yaml');
  writeFileSync(path, text);
  return path;
}
