// Point-to-point between ranks on different hosts, as an MPI library does it over RDMA NICs (Open
// MPI's ob1 over openib or MX). Up to the eager limit, the sender's first NIC writes the message
// into a buffer the receiver registered beforehand, and the receiver copies it out once its
// receive matches. Above it, an RDMA-write rendezvous: the sender's request-to-send crosses the
// wire, the receiver answers with its buffer once the receive is posted, the sender's NICs write
// the message straight into it, one chunk per rail in parallel (rails.ts), and the last write
// tells the receiver.
import { all } from '../../engine/combinators.ts';
import { wait, type Program } from '../../engine/program.ts';
import { range, subRange, type Range } from '../../node/buffer.ts';
import { NicDma } from '../../node/nic-dma.ts';
import { softwareCosts } from '../../node/software-costs.ts';
import type { World } from '../../node/world.ts';
import { netCosts } from './net-costs.ts';
import { railWeights, splitAcrossRails, type RailOptions } from './rails.ts';

/** The first packet of a message: a request to send, or the whole message already in `bounce`. */
interface FirstPacket {
  bytes: number;
  bounce?: Range;
}

interface ClearToSend {
  into: Range;
}

export interface BetweenHosts {
  /** Whether `peer` runs on another host than this rank. */
  remote(peer: number): boolean;
  send(to: number, data: Range, tag: number): Program<void>;
  recv(from: number, into: Range, tag: number): Program<void>;
}

export function createBetweenHosts(world: World, me: number, rails: RailOptions): BetweenHosts {
  const node = world.node;
  const myCore = world.cores[me];
  let dma: NicDma | undefined;
  const nics = () => (dma ??= NicDma.of(node));
  const hostOf = (rank: number) => node.topo.core(world.cores[rank]).host ?? 0;
  const myHost = hostOf(me);
  const channel = (what: string, tag: number) => `net-${what}#${tag}`;

  /** A control message over the first rail: the library's bookkeeping, then the wire. */
  function* control(to: number, what: string, tag: number, value: unknown): Program<void> {
    const start = world.sim.now;
    yield* world.sim.sleep(softwareCosts.controlSideNs);
    node.trace.record({ rank: me, kind: 'control', label: `${what}->${to}`, start, end: world.sim.now, bytes: 0 });
    world.deliver(me, to, channel(what, tag), value, nics().railLatency(myHost, 0));
  }

  function* receive(from: number, what: string, tag: number, label: string): Program<unknown> {
    const start = world.sim.now;
    const value = yield* world.receive(from, me, channel(what, tag));
    node.trace.record({ rank: me, kind: 'wait', label, start, end: world.sim.now, bytes: 0 });
    return value;
  }

  /** Weights of the rails for a message from `data`'s NUMA node. */
  function weightsFor(data: Range): number[] {
    const numa = data.buf.home ?? node.topo.core(myCore).numa;
    return railWeights(nics(), myHost, numa, rails);
  }

  /** The message into a fresh registered buffer on the receiver's NUMA node, over the heaviest rail
   *  (the first of equals), as the library sends a small message on one NIC. */
  function* sendEager(to: number, data: Range, tag: number): Program<void> {
    const start = world.sim.now;
    yield* world.sim.sleep(softwareCosts.controlSideNs);
    node.trace.record({ rank: me, kind: 'control', label: `eager->${to}`, start, end: world.sim.now, bytes: 0 });
    const peerCore = world.cores[to];
    const home = node.topo.core(peerCore).numa;
    const bounce = range(node.allocate(`net eager r${me}>r${to}`, data.bytes, -1, home));
    const packet: FirstPacket = { bytes: data.bytes, bounce };
    if (data.bytes === 0) {
      world.deliver(me, to, channel('first', tag), packet, nics().railLatency(myHost, 0));
      return;
    }
    const weights = weightsFor(data);
    const rail = weights.indexOf(Math.max(...weights));
    const from = { core: myCore, range: data };
    yield* nics().transfer(
      rail,
      from,
      { core: peerCore, range: bounce },
      { rank: me, label: `eager->${to} rail ${rail}` },
    );
    world.deliver(me, to, channel('first', tag), packet, 0);
  }

  return {
    remote: (peer) => hostOf(peer) !== myHost,

    *send(to, data, tag) {
      if (data.bytes <= netCosts.eagerLimitBytes) {
        yield* sendEager(to, data, tag);
        return;
      }
      const rts: FirstPacket = { bytes: data.bytes };
      yield* control(to, 'first', tag, rts);
      const { into } = (yield* receive(to, 'cts', tag, `cts<-${to}`)) as ClearToSend;
      const chunks = splitAcrossRails(data.bytes, weightsFor(data));
      const peerCore = world.cores[to];
      const flows = [];
      let offset = 0;
      for (const [rail, bytes] of chunks.entries()) {
        if (bytes === 0) continue;
        const from = { core: myCore, range: subRange(data, offset, bytes) };
        const dest = { core: peerCore, range: subRange(into, offset, bytes) };
        const label = `rdma->${to} rail ${rail}`;
        flows.push(world.sim.spawn(`r${me} ${label}`, nics().transfer(rail, from, dest, { rank: me, label })));
        offset += bytes;
      }
      yield* wait(all(flows));
      // The completion rides on the last write: the receiver learns it when the data has landed.
      world.deliver(me, to, channel('fin', tag), true, 0);
    },

    *recv(from, into, tag) {
      const { bytes, bounce } = (yield* receive(from, 'first', tag, `recv<-${from}`)) as FirstPacket;
      if (bytes > into.bytes) {
        throw new RangeError(
          `rank ${me} posted a receive of ${into.bytes} bytes from rank ${from} (tag ${tag}), which sent ${bytes}`,
        );
      }
      if (bounce) {
        if (bytes > 0)
          yield* node.copy(myCore, bounce, subRange(into, 0, bytes), { rank: me, label: `eager<-${from}` });
        return;
      }
      const cts: ClearToSend = { into: subRange(into, 0, bytes) };
      yield* control(from, 'cts', tag, cts);
      yield* receive(from, 'fin', tag, `rdma<-${from}`);
    },
  };
}
