// A scenario becomes tables of points: one table per sweep combination (machine × placement ×
// ranks × root × rail share × seed, in that nesting), one row per size, one cell per algorithm.
import type { Point } from './point.ts';
import { placeThreads } from './placement.ts';
import {
  rankCount,
  type MachineChoice,
  type PlacementSpec,
  type RootChoice,
  type Scenario,
  type ScenarioAlgorithm,
  threadName,
} from './scenario.ts';

export interface Cell {
  algorithm: ScenarioAlgorithm;
  point: Point;
}

export interface Row<C extends Cell = Cell> {
  bytes: number;
  cells: C[];
}

export interface Table<C extends Cell = Cell> {
  machine: MachineChoice;
  ranks: number;
  placement: PlacementSpec;
  seed: string;
  root: RootChoice;
  /** With `sweep.railShare`: the share every algorithm with `rails: share` sends on the first NIC. */
  railShare?: number;
  /** Rank i runs on cores[i] (with SMT, a core may appear several times). */
  cores: number[];
  /** With SMT or a list naming hardware threads: rank i runs on thread threads[i] of cores[i]. */
  threads?: number[];
  rows: Row<C>[];
}

export function expandScenario(s: Scenario): Table[] {
  const tables: Table[] = [];
  for (const machine of s.machines) {
    for (const placement of s.placements) {
      // Rank values that come to one count on this machine (`all` and 8 on 8 cores) give one table.
      const counts = [...new Set(s.ranks.map((count) => rankCount(count, machine.spec, s.smt)))];
      for (const ranks of counts) {
        for (const root of s.rootSweep ?? [s.root]) {
          for (const railShare of s.railShareSweep ?? [undefined]) {
            for (const seed of s.seedSweep ?? [s.seed]) {
              tables.push(table(s, machine, placement, ranks, root, seed, railShare));
            }
          }
        }
      }
    }
  }
  return tables;
}

/** One table of the sweep: a row per size, a cell per algorithm. */
function table(
  s: Scenario,
  machine: MachineChoice,
  placement: PlacementSpec,
  ranks: number,
  root: RootChoice,
  seed: string,
  railShare: number | undefined,
): Table {
  // The loader has checked every combination, so this cannot fail for a loaded scenario.
  const placed = placeThreads(machine.spec, ranks, placement, seed, s.smt);
  const cores = placed.map((t) => t.core);
  const onThreads = s.smt || (typeof placement !== 'string' && placement.some((e) => typeof e !== 'number'));
  const rows = s.sizes.map((bytes) => ({
    bytes,
    cells: s.algorithms.map((algorithm) => ({
      algorithm,
      point: {
        scenario: s.name,
        ...(s.file ? { file: s.file } : {}),
        machine: machine.spec,
        cores: [...cores],
        operation: s.operation,
        algorithm: algorithm.name,
        ...(algorithm.at ? { algorithmAt: algorithm.at } : {}),
        params:
          railShare !== undefined && algorithm.params.rails === 'share'
            ? { ...algorithm.params, railShare }
            : { ...algorithm.params },
        bytes,
        ...(s.counts ? { counts: [...s.counts] } : {}),
        root,
        cache: s.cache,
        ...(s.buffers === 'fresh' ? { buffers: 'fresh' as const } : {}),
        iterations: s.iterations,
        warmup: s.warmup,
        seed,
        ...(s.skewNs ? { skewNs: s.skewNs } : {}),
        ...(s.trains ? { trains: true as const } : {}),
        ...(s.exact ? { exact: true as const } : {}),
      },
    })),
  }));
  return {
    machine,
    ranks,
    placement,
    seed,
    root,
    ...(railShare !== undefined ? { railShare } : {}),
    cores,
    ...(onThreads ? { threads: placed.map((t) => t.thread) } : {}),
    rows,
  };
}

/** Where the table's ranks run, as reports print it: "cores 0 1 2" or "hardware threads 0.0 0.1". */
export function placedOn(t: Pick<Table, 'cores' | 'threads'>): string {
  if (!t.threads) return `cores ${t.cores.join(' ')}`;
  return `hardware threads ${t.cores.map((core, i) => threadName({ core, thread: t.threads![i] })).join(' ')}`;
}

export function countPoints(tables: Table[]): number {
  return tables.reduce((n, t) => n + t.rows.reduce((m, r) => m + r.cells.length, 0), 0);
}
