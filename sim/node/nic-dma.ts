// NIC DMA between hosts of a several-host machine (hardware/cluster.ts): a transfer over one rail
// is one flow that reads the source buffer's home memory, crosses every inter-socket link from
// that NUMA node to the sending NIC's I/O bus, the bus's host link (paying each PCIe packet's
// overhead), the NIC's wire and the peer NIC, then the receiving host's bus, links and memory.
// Rail k of a host is its k-th NIC; rails of two hosts with the same index share a wire.
import { wait, type Program } from '../engine/program.ts';
import type { Resource } from '../flow/network.ts';
import type { IoBusSpec, NicSpec, VertexId } from '../../hardware/spec.ts';
import type { Range } from './buffer.ts';
import { nicCosts } from './nic-costs.ts';
import { add, type Node, type Uses } from './node.ts';

/** Where one end of a transfer is: the core whose process owns the buffer, and the buffer. */
export interface DmaEnd {
  core: number;
  range: Range;
}

interface NicState {
  spec: NicSpec;
  bus: IoBusSpec;
  send: Resource;
  receive: Resource;
  /** Host link of the NIC's bus, towards memory and from memory. */
  busIn: Resource;
  busOut: Resource;
}

const byNode = new WeakMap<Node, NicDma>();

export class NicDma {
  private readonly node: Node;
  /** Per host, its NICs in the machine's order: index = rail. */
  private readonly hosts = new Map<number, NicState[]>();
  /** Per link direction, the receiver's buffers for DMA packets (capacity 1: the time they are busy). */
  private readonly linkBuffers = new Map<string, Resource>();

  static of(node: Node): NicDma {
    let dma = byNode.get(node);
    if (!dma) {
      dma = new NicDma(node);
      byNode.set(node, dma);
    }
    return dma;
  }

  private constructor(node: Node) {
    this.node = node;
    const buses = new Map<string, { spec: IoBusSpec; in: Resource; out: Resource }>();
    for (const bus of node.spec.ioBuses) {
      buses.set(bus.id, {
        spec: bus,
        in: node.net.addResource(`${bus.id} to memory`, bus.bandwidth),
        out: node.net.addResource(`${bus.id} from memory`, bus.bandwidth),
      });
    }
    for (const nic of node.spec.nics) {
      const bus = buses.get(nic.bus)!;
      const host = nic.host ?? 0;
      const list = this.hosts.get(host) ?? [];
      list.push({
        spec: nic,
        bus: bus.spec,
        send: node.net.addResource(`${nic.id} send`, nic.bandwidth),
        receive: node.net.addResource(`${nic.id} receive`, nic.bandwidth),
        busIn: bus.in,
        busOut: bus.out,
      });
      this.hosts.set(host, list);
    }
  }

  /** Rails between hosts: the NICs each host has (every host of a cluster has the same). */
  rails(host: number): readonly NicSpec[] {
    return (this.hosts.get(host) ?? []).map((n) => n.spec);
  }

  hostOf(core: number): number {
    return this.node.topo.core(core).host ?? 0;
  }

  /**
   * Resources and first-byte latency of moving bytes from `from` to `to` over `rail`. A buffer with
   * no home yet gets its owner's NUMA node (first touch by the process that posted it).
   */
  path(rail: number, from: DmaEnd, to: DmaEnd): { uses: Uses; latency: number } {
    const out = this.nic(this.hostOf(from.core), rail);
    const into = this.nic(this.hostOf(to.core), rail);
    const uses: Uses = new Map();
    const read = this.memorySide(out, from, uses, 'read');
    add(uses, out.send, 1);
    add(uses, into.receive, 1);
    const written = this.memorySide(into, to, uses, 'write');
    return { uses, latency: this.latencyOf(out) + read + written };
  }

  /**
   * Throughput the sending side of `rail` offers a process whose buffers are on `numa` of `host`,
   * alone on the machine: the smallest capacity / weight over its memory, links, bus and wire.
   * This is what a library that knows where its process and the NIC sit can predict.
   */
  monoRailThroughput(host: number, rail: number, numa: number): number {
    const nic = this.nic(host, rail);
    const uses: Uses = new Map();
    this.memoryPath(nic, numa, uses, 'read');
    add(uses, nic.send, 1);
    let best = Infinity;
    for (const [r, w] of uses) if (w > 0) best = Math.min(best, r.capacity / w);
    return best;
  }

  /** Whether `rail`'s NIC on `host` sits on an I/O bus of the vertex NUMA node `numa` hangs off. */
  nearRail(host: number, rail: number, numa: number): boolean {
    return this.nic(host, rail).bus.attach === this.node.topo.numa(numa).attach;
  }

  /** Moves `from`'s bytes into `to` over `rail`: one flow; content moves as it was at the start. */
  *transfer(rail: number, from: DmaEnd, to: DmaEnd, info: { rank: number; label: string }): Program<void> {
    const src = from.range;
    const dst = to.range;
    if (src.bytes !== dst.bytes)
      throw new RangeError(`${info.label}: source has ${src.bytes} bytes, destination ${dst.bytes}`);
    const snapshot = src.buf.content.slice(src.offset, src.bytes);
    const start = this.node.sim.now;
    const { uses, latency } = this.path(rail, from, to);
    const list = [...uses].filter(([, w]) => w > 0).map(([resource, weight]) => ({ resource, weight }));
    const flow = this.node.net.start({ bytes: src.bytes, uses: list, latency, label: info.label });
    yield* wait(flow);
    dst.buf.content.write(dst.offset, snapshot);
    // The NIC's writes are coherent: every cached copy of the destination is now stale.
    for (const cache of this.node.spec.caches)
      this.node.cache(cache.id).invalidateRange(dst.buf.id, dst.offset, dst.bytes);
    this.node.trace.record({
      rank: info.rank,
      kind: 'nic-dma',
      label: info.label,
      start,
      end: this.node.sim.now,
      bytes: src.bytes,
      resource: flow.mainBottleneck()?.name,
    });
  }

  /** One-way latency of a NIC to its peer. */
  latencyOf(nic: NicState): number {
    const ns = nic.spec.latencyNs;
    if (ns === undefined) throw new Error(`NIC ${nic.spec.id} of machine ${this.node.spec.name} has no latency`);
    return ns;
  }

  /** One-way latency of rail `rail` of `host`. */
  railLatency(host: number, rail: number): number {
    return this.latencyOf(this.nic(host, rail));
  }

  private nic(host: number, rail: number): NicState {
    const nic = this.hosts.get(host)?.[rail];
    if (!nic) throw new Error(`host ${host} of machine ${this.node.spec.name} has no NIC for rail ${rail}`);
    return nic;
  }

  /** Adds one end's memory, links and bus; returns the latency it adds. */
  private memorySide(nic: NicState, end: DmaEnd, uses: Uses, dir: 'read' | 'write'): number {
    const buf = end.range.buf;
    if (buf.home === undefined) buf.home = this.node.topo.core(end.core).numa;
    return this.memoryPath(nic, buf.home, uses, dir);
  }

  private memoryPath(nic: NicState, numa: number, uses: Uses, dir: 'read' | 'write'): number {
    const node = this.node.topo.numa(numa);
    const [from, to] = dir === 'read' ? [node.attach, nic.bus.attach] : [nic.bus.attach, node.attach];
    if (dir === 'read') add(uses, this.node.memoryResource(numa), 1);
    else this.node.addMemoryWriteUse(uses, numa, 1);
    for (const link of this.node.routeResources(from, to)) add(uses, link, 1);
    // Every PCIe packet carries its payload plus framing, sequence number, header and CRC.
    const payload = nic.spec.dmaBytes ?? nicCosts.defaultDmaBytes;
    add(uses, dir === 'read' ? nic.busOut : nic.busIn, (payload + nicCosts.tlpOverheadBytes) / payload);
    // Each link packet holds a buffer of the next receiver until its credit comes back, a round
    // trip of the link: a byte occupies the buffers for round trip / (buffers x packet bytes).
    const packet = Math.min(payload, nicCosts.linkPacketBytes);
    for (const hop of this.node.topo.route(from, to)) {
      const buffers = this.buffersOf(hop.link.name, hop.from, hop.to);
      add(uses, buffers, (2 * hop.link.latencyNs) / (nicCosts.linkDmaBuffers * packet));
    }
    // A read waits for memory before its first byte leaves; a posted write does not delay the sender.
    return (dir === 'read' ? node.latencyNs : 0) + this.node.topo.routeLatency(from, to);
  }

  private buffersOf(link: string, from: VertexId, to: VertexId): Resource {
    const key = `${link}:${from}->${to}`;
    let r = this.linkBuffers.get(key);
    if (!r) {
      r = this.node.net.addResource(`${link} ${from}->${to} DMA buffers`, 1);
      this.linkBuffers.set(key, r);
    }
    return r;
  }
}
