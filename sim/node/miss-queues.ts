// How many cache lines one core can wait for at once, and what that costs a stream (Little's law).
//
// A core's loads and stores that miss its L1 each hold one L1D fill buffer until the line arrives;
// with M of them and lines of L bytes, a core waiting `latency` per line streams at most
// M x L / latency. Real cores stream far faster than that from memory because the L2's hardware
// prefetcher (Intel's L2 streamer, AMD's L2 stream prefetcher) recognises an ascending stream and
// runs ahead of it: the L1 misses then find their lines in the L2 and hold a fill buffer only for
// the L2's latency, while the L2's own queue of outstanding misses (Intel's superqueue, AMD's L2
// miss queue; `costs.streamConcurrency`) waits for the far level. Short or fresh streams keep the
// L1 limit: the streamer trains on the first lines it sees and stops at every 4 KiB boundary.
//
// Each queue is a flow resource of capacity 1 (the fraction of time its entries are busy); a byte
// fetched from `latency` away occupies latency / (entries x L) of it.
import type { Resource } from '../flow/network.ts';
import type { FlowNetwork } from '../flow/network.ts';
import { lineBytesOf, type MachineSpec } from '../../hardware/spec.ts';
import type { Topology } from './topology.ts';

/**
 * The L2 streamer does not prefetch across a 4 KiB boundary and needs two misses in ascending
 * order within it before it issues prefetches (Intel 64 and IA-32 Architectures Optimization
 * Reference Manual, "Data Prefetch to the L2 and Last Level Cache": the streamer "detects and
 * maintains up to 32 streams of data accesses ... one forward and one backward stream per 4K-byte
 * page"; AMD's family 10h and 17h guides describe the same per-page training).
 */
export const PREFETCH_REGION_BYTES = 4096;
export const PREFETCH_TRAINING_LINES = 2;

/** Resources a flow crosses, with the share of its bytes that crosses each. */
export type Uses = Map<Resource, number>;

export function add(uses: Uses, resource: Resource, weight: number): void {
  uses.set(resource, (uses.get(resource) ?? 0) + weight);
}

export class MissQueues {
  private readonly fillBuffers = new Map<number, Resource>();
  private readonly streamQueue = new Map<number, Resource>();
  /** Per core, the latency an L1 miss waits when the prefetcher has already brought the line to L2. */
  private readonly prefetchedLatency = new Map<number, number>();
  private readonly claimQueue = new Map<number, Resource>();
  private readonly lineBytes: number;
  private readonly fill: number;
  private readonly stream: number;
  private readonly claims: number;

  constructor(spec: MachineSpec, topo: Topology, net: FlowNetwork) {
    const { missConcurrency, streamConcurrency, claimConcurrency } = spec.costs;
    this.lineBytes = lineBytesOf(spec);
    this.fill = missConcurrency ?? 0;
    this.stream = streamConcurrency ?? 0;
    this.claims = claimConcurrency ?? 0;
    for (const core of spec.cores) {
      if (this.claims > 0)
        this.claimQueue.set(core.id, net.addResource(`core${core.id} ownership claims in flight`, 1));
      if (this.fill > 0) this.fillBuffers.set(core.id, net.addResource(`core${core.id} misses in flight`, 1));
      if (this.stream > 0) {
        this.streamQueue.set(core.id, net.addResource(`core${core.id} stream prefetches in flight`, 1));
        // The streamer fills the L2 (or the outermost private level where a core has no L2).
        const own = topo.cachesOf(core.id).filter((c) => !c.memorySide);
        const l2 = own.find((c) => c.level === 2) ?? own.filter((c) => c.level <= 2).at(-1);
        if (l2) this.prefetchedLatency.set(core.id, l2.latencyNs);
      }
    }
  }

  /** Whether a part served from a cache of this level is beyond the level the streamer fills. */
  beyondPrefetch(level: number): boolean {
    return level > 2;
  }

  /**
   * Charges fetching `share` of a flow's bytes from `latency` away, as one part of a sequential
   * access of `streamBytes` bytes. `far`: served beyond the L2 (an L3, another socket, memory),
   * where the prefetcher can help.
   */
  charge(uses: Uses, core: number, share: number, latency: number, far: boolean, streamBytes: number): void {
    if (latency <= 0 || share <= 0) return;
    const fill = this.fillBuffers.get(core);
    const queue = this.streamQueue.get(core);
    const near = this.prefetchedLatency.get(core);
    if (!far || queue === undefined || near === undefined || near >= latency) {
      if (fill) add(uses, fill, (share * latency) / (this.fill * this.lineBytes));
      return;
    }
    const untrained = untrainedShare(streamBytes, this.lineBytes);
    if (fill) {
      const l1Wait = untrained * latency + (1 - untrained) * near;
      add(uses, fill, (share * l1Wait) / (this.fill * this.lineBytes));
    }
    add(uses, queue, (share * latency) / (this.stream * this.lineBytes));
  }

  /**
   * Stores into `share` of a flow's bytes that another core of the socket holds: each line's claim
   * waits `latency` for that copy's invalidation, `costs.claimConcurrency` claims at a time.
   */
  chargeClaims(uses: Uses, core: number, share: number, latency: number): void {
    const queue = this.claimQueue.get(core);
    if (queue && latency > 0 && share > 0) add(uses, queue, (share * latency) / (this.claims * this.lineBytes));
  }

  /** A store that holds a fill buffer until the far level takes the line (a non-temporal store's
   *  write-combining buffer), with no prefetcher to help. */
  chargeUnprefetched(uses: Uses, core: number, share: number, latency: number): void {
    const fill = this.fillBuffers.get(core);
    if (fill && latency > 0 && share > 0) add(uses, fill, (share * latency) / (this.fill * this.lineBytes));
  }
}

/** Share of a stream's lines fetched before the prefetcher has trained on their 4 KiB region. */
export function untrainedShare(streamBytes: number, lineBytes: number): number {
  if (streamBytes <= 0) return 1;
  const regions = Math.ceil(streamBytes / PREFETCH_REGION_BYTES);
  return Math.min(1, (regions * PREFETCH_TRAINING_LINES * lineBytes) / streamBytes);
}
