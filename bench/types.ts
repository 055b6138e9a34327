// One line of the benchmark table that `bench/run.ts` prints.

export interface BenchRow {
  name: string;
  value: number;
  unit: string;
  /** Human-readable goal, e.g. ">= 3e6". */
  target?: string;
  /** Whether `value` meets `target`; absent when there is no target. */
  ok?: boolean;
}
