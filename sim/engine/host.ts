// What processes and timeouts need from the simulation that owns them. Kept as an interface so
// `process.ts` and `timeout.ts` do not import `simulation.ts` (which imports them).

import type { QueueEntry } from './event-queue.ts';
import type { Process } from './process.ts';

export interface EngineHost {
  readonly now: number;
  /** The process whose code is running right now, if any (mutexes use it to name their holder). */
  current: Process<unknown> | undefined;
  /** Queues `entry` to fire at absolute simulated `time`. */
  enqueue(time: number, entry: QueueEntry): void;
  processFinished(p: Process<unknown>): void;
}
