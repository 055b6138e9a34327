// Runs every point of a scenario with a PointRunner (the simulator, or a stand-in in tests).
import { expandScenario, type Cell, type Table } from './expand.ts';
import { UnavailableError, type Point, type PointResult, type PointRunner } from './point.ts';
import type { Scenario } from './scenario.ts';

export interface ResultCell extends Cell {
  /** For an unavailable cell: NaN times (reporters print n/a, JSON null) and no breakdown. */
  result: PointResult;
  /** Why the cell could not run (the machine lacks the algorithm's mechanism); absent when it ran. */
  unavailable?: string;
}

export type ResultTable = Table<ResultCell>;

export interface ScenarioResult {
  scenario: Scenario;
  tables: ResultTable[];
}

/** Called after each point with the number done and the total. */
export type ProgressListener = (done: number, total: number) => void;

export interface RunOptions {
  /** An unavailable cell stops the run (its UnavailableError propagates) instead of becoming n/a. */
  strict?: boolean;
}

const UNAVAILABLE: PointResult = {
  meanNs: NaN,
  minNs: NaN,
  maxNs: NaN,
  breakdown: {},
  rankTimeNs: NaN,
  libraryBytes: NaN,
};

/** What running one point gave: its result, or what it threw. */
export type PointOutcome = { ok: true; result: PointResult } | { ok: false; error: unknown };

/** Takes the outcome of point `index`; called in index order. Throws what stops the sweep. */
export type SettleOutcome = (index: number, outcome: PointOutcome) => void;

/** Runs all of a sweep's points elsewhere (worker threads), settling each outcome in index order. */
export type PointBatchRunner = (points: Point[], settle: SettleOutcome) => Promise<void>;

/** Points run one after another in table, size, algorithm order, so output never depends on timing. */
export function runScenario(
  s: Scenario,
  runner: PointRunner,
  onProgress?: ProgressListener,
  opts: RunOptions = {},
): ScenarioResult {
  const sweep = startSweep(s, onProgress, opts);
  sweep.points.forEach((point, i) => sweep.settle(i, outcomeOf(runner, point)));
  return sweep.result();
}

/**
 * The same sweep with its points run by `runBatch`, possibly several at once; outcomes are taken
 * in the points' order, so the result, the progress reported and the error that stops the sweep
 * are those of runScenario.
 */
export async function runScenarioBatched(
  s: Scenario,
  runBatch: PointBatchRunner,
  onProgress?: ProgressListener,
  opts: RunOptions = {},
): Promise<ScenarioResult> {
  const sweep = startSweep(s, onProgress, opts);
  await runBatch(sweep.points, sweep.settle);
  return sweep.result();
}

interface Sweep {
  points: Point[];
  settle: SettleOutcome;
  result(): ScenarioResult;
}

function startSweep(s: Scenario, onProgress: ProgressListener | undefined, opts: RunOptions): Sweep {
  const tables = expandScenario(s);
  const cells = tables.flatMap((t) => t.rows.flatMap((r) => r.cells));
  const settled: ResultCell[] = [];
  return {
    points: cells.map((c) => c.point),
    settle(index, outcome) {
      settled[index] = settleCell(cells[index], outcome, opts);
      onProgress?.(index + 1, cells.length);
    },
    result() {
      let next = 0;
      const results = tables.map((table) => ({
        ...table,
        rows: table.rows.map((row) => ({ bytes: row.bytes, cells: row.cells.map(() => settled[next++]) })),
      }));
      return { scenario: s, tables: results };
    },
  };
}

/** Runs one point, catching what it throws. */
export function outcomeOf(runner: PointRunner, point: Point): PointOutcome {
  try {
    return { ok: true, result: runner(point) };
  } catch (error) {
    return { ok: false, error };
  }
}

function settleCell(cell: Cell, outcome: PointOutcome, opts: RunOptions): ResultCell {
  if (outcome.ok) return { ...cell, result: outcome.result };
  const e = outcome.error;
  if (opts.strict || !(e instanceof UnavailableError)) throw e;
  return { ...cell, result: { ...UNAVAILABLE, breakdown: {} }, unavailable: e.detail };
}

/** Each distinct reason a cell of `cells` is n/a, once, by algorithm label in first-seen order. */
export function unavailableNotes(cells: Iterable<ResultCell>): string[] {
  const notes = new Set<string>();
  for (const c of cells) if (c.unavailable !== undefined) notes.add(`${c.algorithm.label}: ${c.unavailable}`);
  return [...notes];
}
