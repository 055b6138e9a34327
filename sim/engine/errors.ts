// Failures the engine reports. Both carry the simulated time, because "what was the clock when it
// broke" is the first question when reading a failed run.

export interface BlockedProcess {
  process: string;
  waitingOn: string;
}

/** The queue ran dry while processes were still blocked: nothing can ever wake them. */
export class DeadlockError extends Error {
  readonly blocked: BlockedProcess[];
  readonly time: number;

  constructor(time: number, blocked: BlockedProcess[]) {
    const noun = blocked.length === 1 ? 'process' : 'processes';
    const lines = blocked.map((b) => `  ${b.process} waits for ${b.waitingOn}`);
    super(`deadlock at t=${time} ns: ${blocked.length} ${noun} blocked\n${lines.join('\n')}`);
    this.name = 'DeadlockError';
    this.blocked = blocked;
    this.time = time;
  }
}

/** An error thrown inside a process, re-thrown out of `Simulation.run()` naming where and when. */
export class ProcessError extends Error {
  readonly process: string;
  readonly time: number;

  constructor(process: string, time: number, cause: unknown) {
    const detail = cause instanceof Error ? cause.message : String(cause);
    super(`process "${process}" failed at t=${time} ns: ${detail}`, { cause });
    this.name = 'ProcessError';
    this.process = process;
    this.time = time;
  }
}
