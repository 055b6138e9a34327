// A fingerprint of the claims and the scenarios they run, recorded in the generated report so that
// a test notices when claims or tolerances changed after the report was written.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { claimScenarios, type PaperClaims } from '../claim.ts';

export const HASH_MARK = 'claims-sha256';

export function suiteHash(papers: PaperClaims[], papersDir: string): string {
  const files = new Set<string>();
  for (const p of papers) {
    files.add(p.file);
    for (const c of p.claims) for (const f of claimScenarios(c)) files.add(f);
  }
  const hash = createHash('sha256');
  for (const file of [...files].sort()) {
    hash.update(relative(papersDir, file)).update('\0').update(readFileSync(file)).update('\0');
  }
  return hash.digest('hex');
}

/** The hash a report recorded, or undefined if it records none. */
export function recordedHash(reportText: string): string | undefined {
  return new RegExp(`<!-- ${HASH_MARK}: ([0-9a-f]{64}) -->`).exec(reportText)?.[1];
}
