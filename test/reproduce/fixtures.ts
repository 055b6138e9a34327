// Synthetic runs and claims files for the reproduction tests: no simulation.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunResult } from '../../scenarios/reproduce/run-result.ts';

/** One table; `times[label]` lists the time at each size, in order. */
export function syntheticRun(sizes: number[], times: Record<string, number[]>, machine = 'm', ranks = 4): RunResult {
  const labels = Object.keys(times);
  return {
    baseline: labels[0],
    labels,
    tables: [
      {
        machine,
        ranks,
        rows: sizes.map((bytes, i) => ({
          bytes,
          cells: Object.fromEntries(
            labels.map((l) => [
              l,
              {
                meanNs: times[l][i],
                breakdown: { copy: 0.75, syscall: 0.25 },
                rankTimeNs: ranks * times[l][i],
                libraryBytes: 4096 * ranks,
              },
            ]),
          ),
        })),
      },
    ],
  };
}

/** A papers folder holding one paper `000` with the given claims text and an empty scenario file. */
export function papersDir(claimsText: string, scenarios: Record<string, string> = { 's.yaml': '' }): string {
  const dir = mkdtempSync(join(tmpdir(), 'claims-'));
  mkdirSync(join(dir, '000'));
  writeFileSync(join(dir, '000', 'claims.yaml'), claimsText);
  for (const [name, text] of Object.entries(scenarios)) writeFileSync(join(dir, '000', name), text);
  return dir;
}

export const KiB = 1024;
export const MiB = 1024 * 1024;
