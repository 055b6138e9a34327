// A small sweep for the tests that run the real simulator through the CLI: 3 sizes × 3 algorithms,
// 9 points, of which knem-linear's 3 are n/a (broadwell has no KNEM).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const SMALL_SWEEP = `name: jobs
machine: broadwell
ranks: 4
operation: bcast
algorithms: [basic, binomial, knem-linear]
sizes: [4KiB, 64KiB, 128KiB]
iterations: 2
`;

/** A fresh folder holding the small sweep as `name`. */
export function writeSmallSweep(name: string): { dir: string; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'intranode-sweep-'));
  const file = join(dir, name);
  writeFileSync(file, SMALL_SWEEP);
  return { dir, file };
}
