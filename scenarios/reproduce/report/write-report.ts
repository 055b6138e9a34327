// Placeholder until the report lands: keeps the command compiling.
import type { PaperClaims } from '../claim.ts';
import type { SuiteRun } from '../run-claims.ts';

export function writeReport(dir: string, _papers: PaperClaims[], _run: SuiteRun): string {
  throw new Error(`report not written yet (${dir})`);
}
