// Cache-line transfers between cores, the currency of shared-memory synchronisation: a flag, a
// queue tail or a FIFO slot last written by one core costs another core one line transfer to read
// or write (topo.lineLatency), and nothing when it already holds the line.
import type { Topology } from '../../node/topology.ts';

export function lineTransfer(topo: Topology, fromCore: number, toCore: number): number {
  return fromCore === toCore ? 0 : topo.lineLatency(fromCore, toCore);
}

/**
 * The lines of a Nemesis lock-free queue (Buntinas et al.; seed 003, slides 6-7). Enqueue swaps the
 * tail atomically, which pulls the tail line from whoever last swapped it; only when the queue was
 * empty does the enqueuer also write the head, in the dequeuer's line (the shadow head keeps the
 * dequeuer's working copy apart). Dequeue reads the shadow head locally; only when it takes the last
 * element does it compare-and-swap the tail back to empty, pulling the tail line.
 */
export class QueueLines {
  private tailCore: number;
  private count: number;

  /** `ownerCore` dequeues; the queue starts with `length` elements, its tail last written by the owner. */
  constructor(
    private readonly topo: Topology,
    readonly ownerCore: number,
    length = 0,
  ) {
    this.tailCore = ownerCore;
    this.count = length;
  }

  get length(): number {
    return this.count;
  }

  /** Line-transfer time of an enqueue by `core`. */
  enqueue(core: number): number {
    let cost = lineTransfer(this.topo, this.tailCore, core);
    if (this.count === 0) cost += lineTransfer(this.topo, this.ownerCore, core);
    this.tailCore = core;
    this.count++;
    return cost;
  }

  /** Line-transfer time of a dequeue by the owner. */
  dequeue(): number {
    if (this.count === 0) throw new Error('dequeue from an empty queue');
    this.count--;
    if (this.count > 0) return 0;
    const cost = lineTransfer(this.topo, this.tailCore, this.ownerCore);
    this.tailCore = this.ownerCore;
    return cost;
  }
}
