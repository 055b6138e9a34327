// The contract between the engine and everything that can block a process. A flow in the fluid
// solver, a mutex grant, a signal: each is a Waitable, so `sim/flow` needs no engine import beyond
// these two interfaces.

export interface Waitable<T = unknown> {
  /** Shown in deadlock reports: what a blocked process waits for. */
  readonly description: string;
  /**
   * Calls `cb` once with the value when this fires. If it already fired, calls `cb` at once,
   * synchronously. Callbacks run in registration order.
   */
  onFire(cb: (value: T) => void): void;
}

export interface Cancellable {
  cancel(): void;
}

/** The slice of the simulation clock that lower-level models (the flow solver) schedule on. */
export interface Scheduler {
  readonly now: number;
  /** Runs `fn` after `delay` ns of simulated time, ordered by (time, insertion order). */
  schedule(delay: number, fn: () => void): Cancellable;
  /**
   * Runs `fn` once no event is left at the current time, before the clock moves on (`fn` may
   * schedule events at the current time; the instant then goes on with them). Optional: a model
   * whose scheduler has no such hook does at once what it would have put off.
   */
  atEndOfInstant?(fn: () => void): void;
}
