// The engine's public surface in one import.

export type { Waitable, Cancellable, Scheduler } from './waitable.ts';
export { type Program, wait } from './program.ts';
export {
  Simulation,
  Process,
  DeadlockError,
  ProcessError,
  type BlockedProcess,
  type SimulationOptions,
  type RunOptions,
} from './simulation.ts';
export { Signal, Mutex, Semaphore, Channel, all, any, fired } from './primitives.ts';
