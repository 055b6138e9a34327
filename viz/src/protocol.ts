// The messages between the page and the simulator's worker, and the run data the views draw.
import type { MachineSpec } from '../../hardware/spec.ts';
import type { LoadSeries } from '../../sim/flow/load-recorder.ts';
import type { TraceEvent } from '../../sim/node/trace.ts';

/** A what-if change to one constant of the machine (machine-edits.ts applies them). */
export interface MachineEdit {
  kind: 'link' | 'cache' | 'numa' | 'copy' | 'controllers';
  /** The link's name, the cache's id, the NUMA node's id; empty for the cores' copy bandwidth and
   *  for the number of memory controllers. */
  id: string;
  /** bytes/ns for bandwidths, bytes for a cache's size, a count for the memory controllers. */
  value: number;
}

/** A machine file or hwloc XML the user uploaded, known to scenarios by its file name. */
export interface Upload {
  name: string;
  text: string;
}

export interface RunInput {
  scenario: string;
  /** Replaces the scenario's machine (a preset name or an upload's name), as `--machine` does. */
  machine?: string;
  edits: MachineEdit[];
  uploads: Upload[];
}

export type ToWorker =
  ({ type: 'run'; id: number } & RunInput) | ({ type: 'check'; id: number } & RunInput) | { type: 'trace'; id: number };

export interface LocatedError {
  message: string;
  line?: number;
  column?: number;
  field?: string;
}

export interface PointData {
  /** Sweep index within its run. */
  index: number;
  /** Which table of the sweep (machine × placement × ranks × seed). */
  table: number;
  tableTitle: string;
  algorithm: string;
  bytes: number;
  meanNs: number;
  /** Why the point could not run (the machine lacks the mechanism). */
  unavailable?: string;
  cores: number[];
  /** Measured calls that started in an earlier call's state and were taken from it (their steps and
   *  loads too), not simulated again. */
  replayed?: { calls: number; of: number };
  events: TraceEvent[];
  loads: LoadSeries[];
}

export interface RunSide {
  /** Each sweep table's machine, by table index (a machine sweep's tables run on different ones). */
  machines: MachineSpec[];
  points: PointData[];
}

export interface RunData {
  name: string;
  operation: string;
  baseline: string;
  algorithms: string[];
  original: RunSide;
  /** The same sweep on the edited machine, when there are edits. */
  whatIf?: RunSide;
}

export type FromWorker =
  | { type: 'progress'; id: number; done: number; total: number }
  | { type: 'result'; id: number; run: RunData }
  | {
      type: 'checked';
      id: number;
      error?: LocatedError;
      machine?: MachineSpec;
      /** Why the what-if edits cannot apply to `machine` (a part they name is not in it). */
      editsError?: LocatedError;
    }
  | { type: 'error'; id: number; error: LocatedError }
  | { type: 'trace'; id: number; json: string };
