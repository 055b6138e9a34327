// Runs the scenarios behind a set of claims, each scenario once however many claims read it, and
// evaluates every claim against its scenario's run.
import { claimScenarios, type Claim } from './claim.ts';
import { evaluateClaim, type Outcome } from './evaluate.ts';
import type { PointBatchRunner } from '../run.ts';
import type { RunResult } from './run-result.ts';

/** Simulates one scenario file, its points on `runBatch` when given; reports points done and total as it goes. */
export type ScenarioRunner = (
  file: string,
  onProgress?: (done: number, total: number) => void,
  runBatch?: PointBatchRunner,
) => Promise<RunResult>;

export interface ClaimResult {
  claim: Claim;
  outcome: Outcome;
}

export interface ScenarioRun {
  file: string;
  result: RunResult;
  /** Wall time of the simulation (s). */
  seconds: number;
}

export interface SuiteRun {
  results: ClaimResult[];
  scenarios: ScenarioRun[];
  seconds: number;
}

export interface RunListener {
  /** Before scenario `index` (0-based) of `count` starts. */
  scenarioStart?: (file: string, index: number, count: number) => void;
  points?: (done: number, total: number) => void;
}

export async function runClaims(
  claims: Claim[],
  run: ScenarioRunner,
  now: () => number,
  listen: RunListener = {},
): Promise<SuiteRun> {
  const files = [...new Set(claims.flatMap(claimScenarios))];
  const start = now();
  const scenarios: ScenarioRun[] = [];
  for (const [index, file] of files.entries()) {
    listen.scenarioStart?.(file, index, files.length);
    const t0 = now();
    const result = await run(file, listen.points);
    scenarios.push({ file, result, seconds: (now() - t0) / 1000 });
  }
  const byFile = new Map(scenarios.map((s) => [s.file, s.result]));
  const results = claims.map((claim) => ({
    claim,
    outcome: evaluateClaim(
      claim,
      claim.scenario ? byFile.get(claim.scenario) : undefined,
      claim.measure.kind === 'ratio-gap' ? byFile.get(claim.measure.against) : undefined,
    ),
  }));
  return { results, scenarios, seconds: (now() - start) / 1000 };
}

/** Claims marked as expected to pass that do not hold (a FAIL, or an input outside its range): what
 *  `--strict` fails on. */
export function regressions(results: ClaimResult[]): ClaimResult[] {
  return results.filter((r) => r.claim.expect === 'pass' && !r.outcome.holds);
}
