// The communicator: every rank's context, the mailboxes between them, and the transports the ranks
// share. Mailboxes are keyed by (from, to, channel) so that matching is FIFO per pair, as MPI's
// non-overtaking rule requires.
import type { Simulation } from '../engine/simulation.ts';
import { Channel } from '../engine/primitives.ts';
import type { Program } from '../engine/program.ts';
import type { Node } from './node.ts';
import type { RunState } from './run-state.ts';

export class World {
  readonly node: Node;
  readonly sim: Simulation;
  /** Rank i runs on cores[i]. */
  readonly cores: readonly number[];
  private readonly boxes = new Map<string, Channel<unknown>>();
  /** Per-run state that mechanisms keep between calls (regions, registration caches...). */
  private readonly states = new Map<RunState<unknown>, unknown>();
  /**
   * A pipeline in a steady state that nothing else can disturb may advance many fragments in one
   * step (a train, sim/kernel/shm/lmt-train.ts). Off (the default), every fragment is simulated.
   */
  readonly trains: boolean;

  constructor(node: Node, cores: readonly number[], opts: { trains?: boolean } = {}) {
    this.node = node;
    this.sim = node.sim;
    this.cores = cores;
    this.trains = opts.trains ?? false;
  }

  get size(): number {
    return this.cores.length;
  }

  mailbox(from: number, to: number, channel: string): Channel<unknown> {
    const key = `${from}>${to}#${channel}`;
    let box = this.boxes.get(key);
    if (!box) {
      box = new Channel<unknown>(`message ${channel} from rank ${from} to rank ${to}`);
      this.boxes.set(key, box);
    }
    return box;
  }

  /** Delivers `value` into the (from, to, channel) mailbox after `delay` ns. */
  deliver(from: number, to: number, channel: string, value: unknown, delay: number): void {
    const box = this.mailbox(from, to, channel);
    this.sim.schedule(delay, () => box.put(value));
  }

  *receive(from: number, to: number, channel: string): Program<unknown> {
    return yield* this.mailbox(from, to, channel).get();
  }

  /** The run's piece of state `key`, created on first use. */
  stateOf<T>(key: RunState<T>): T {
    if (!this.states.has(key)) this.states.set(key, key.create(this));
    // Only key.create fills the entry of key, so it holds a T.
    return this.states.get(key) as T;
  }

  /** Whether `key`'s state exists yet (without creating it). */
  hasState(key: RunState<unknown>): boolean {
    return this.states.has(key);
  }
}
