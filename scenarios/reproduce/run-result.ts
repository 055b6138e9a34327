// What a claim is computed from: a scenario's simulated times, reduced to labels, sizes and shares.
// Kept apart from the scenario layer's own result type so that claims can be evaluated on
// synthetic results in tests and on results read back from a report.

export interface RunCell {
  /** Mean simulated time of one iteration (ns). */
  meanNs: number;
  /** Share of rank-time per kind of step (copy, syscall, lock-wait, ...), summing to 1. */
  breakdown: Record<string, number>;
  /** Rank-time behind one reported time (ns, one call or one ping-pong transfer), summed over
   *  ranks: the whole the shares divide. */
  rankTimeNs: number;
  /** Memory the library allocated beyond the operation's own buffers (bytes; scenarios/point.ts). */
  libraryBytes: number;
}

export interface RunRow {
  bytes: number;
  /** By algorithm label. */
  cells: Record<string, RunCell>;
}

export interface RunTable {
  /** The machine as the scenario names it (preset name or file). */
  machine: string;
  ranks: number;
  /** Ascending sizes. */
  rows: RunRow[];
}

export interface RunResult {
  /** Label every time is normalised against in plots. */
  baseline: string;
  labels: string[];
  tables: RunTable[];
}
