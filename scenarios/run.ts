// Runs every point of a scenario with a PointRunner (the simulator, or a stand-in in tests).
import { countPoints, expandScenario, type Cell, type Table } from './expand.ts';
import type { PointResult, PointRunner } from './point.ts';
import type { Scenario } from './scenario.ts';

export interface ResultCell extends Cell {
  result: PointResult;
}

export type ResultTable = Table<ResultCell>;

export interface ScenarioResult {
  scenario: Scenario;
  tables: ResultTable[];
}

/** Called after each point with the number done and the total. */
export type ProgressListener = (done: number, total: number) => void;

/** Points run one after another in table, size, algorithm order, so output never depends on timing. */
export function runScenario(s: Scenario, runner: PointRunner, onProgress?: ProgressListener): ScenarioResult {
  const tables = expandScenario(s);
  const total = countPoints(tables);
  let done = 0;
  const results = tables.map((table) => ({
    ...table,
    rows: table.rows.map((row) => ({
      bytes: row.bytes,
      cells: row.cells.map((cell) => {
        const result = runner(cell.point);
        onProgress?.(++done, total);
        return { ...cell, result };
      }),
    })),
  }));
  return { scenario: s, tables: results };
}
