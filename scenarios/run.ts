// Runs every point of a scenario with a PointRunner (the simulator, or a stand-in in tests).
import { countPoints, expandScenario, type Cell, type Table } from './expand.ts';
import { UnavailableError, type PointResult, type PointRunner } from './point.ts';
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

const UNAVAILABLE: PointResult = { meanNs: NaN, minNs: NaN, maxNs: NaN, breakdown: {} };

/** Points run one after another in table, size, algorithm order, so output never depends on timing. */
export function runScenario(s: Scenario, runner: PointRunner, onProgress?: ProgressListener, opts: RunOptions = {}): ScenarioResult {
  const tables = expandScenario(s);
  const total = countPoints(tables);
  let done = 0;
  const results = tables.map((table) => ({
    ...table,
    rows: table.rows.map((row) => ({
      bytes: row.bytes,
      cells: row.cells.map((cell) => {
        const outcome = runPoint(cell, runner, opts);
        onProgress?.(++done, total);
        return outcome;
      }),
    })),
  }));
  return { scenario: s, tables: results };
}

function runPoint(cell: Cell, runner: PointRunner, opts: RunOptions): ResultCell {
  try {
    return { ...cell, result: runner(cell.point) };
  } catch (e) {
    if (opts.strict || !(e instanceof UnavailableError)) throw e;
    return { ...cell, result: { ...UNAVAILABLE, breakdown: {} }, unavailable: e.detail };
  }
}

/** Each distinct reason a cell of `cells` is n/a, once, by algorithm label in first-seen order. */
export function unavailableNotes(cells: Iterable<ResultCell>): string[] {
  const notes = new Set<string>();
  for (const c of cells) if (c.unavailable !== undefined) notes.add(`${c.algorithm.label}: ${c.unavailable}`);
  return [...notes];
}
