// Point-to-point between ranks on different hosts, as an MPI library does it over RDMA NICs (Open
// MPI's ob1 over openib or MX). Up to the eager limit, the sender's first NIC writes the message
// into a buffer the receiver registered beforehand, and the receiver copies it out once its
// receive matches. Above it, an RDMA-write rendezvous: the sender's request-to-send crosses the
// wire, the receiver answers with its buffer once the receive is posted, the sender's NICs write
// the message straight into it, one chunk per rail in parallel (rails.ts), and the last write
// tells the receiver.
import { all } from '../../engine/combinators.ts';
import { wait, type Program } from '../../engine/program.ts';
import { Signal } from '../../engine/signal.ts';
import { range, subRange, type Range } from '../../node/buffer.ts';
import { NicDma } from '../../node/nic-dma.ts';
import { libraryWork } from '../../node/control.ts';
import { softwareCosts } from '../../node/software-costs.ts';
import type { World } from '../../node/world.ts';
import { netCosts } from './net-costs.ts';
import { railWeights, splitAcrossRails, type RailOptions } from './rails.ts';

/**
 * The first packet of a message: a request to send, or the whole message in `bounce`. It is queued
 * for the receiver when the send is called, so messages match in the order they were sent, as
 * MPI's non-overtaking rule requires; `arrived` fires when it has really crossed the wire.
 */
interface FirstPacket {
  bytes: number;
  bounce?: Range;
  arrived: Signal<void>;
}

/** The receiver's answer to a request to send: where to write, and what to fire when written. */
interface ClearToSend {
  into: Range;
  written: Signal<void>;
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

  /** The library's bookkeeping of one side of a message. */
  function* bookkeeping(label: string): Program<void> {
    const start = yield* libraryWork(world, me, softwareCosts.controlSideNs);
    node.trace.record({ rank: me, kind: 'control', label, start, end: world.sim.now, bytes: 0 });
  }

  /** Weights of the rails for a message from `data`'s NUMA node. */
  function weightsFor(data: Range): number[] {
    const numa = data.buf.home ?? node.topo.core(myCore).numa;
    return railWeights(nics(), myHost, numa, rails);
  }

  /** The message into a fresh registered buffer on the receiver's NUMA node, over the heaviest rail
   *  (the first of equals), as the library sends a small message on one NIC. */
  function* sendEager(to: number, data: Range, bounce: Range, arrived: Signal<void>): Program<void> {
    yield* bookkeeping(`eager->${to}`);
    if (data.bytes === 0) {
      world.sim.schedule(nics().railLatency(myHost, 0), () => arrived.fire());
      return;
    }
    const weights = weightsFor(data);
    const rail = weights.indexOf(Math.max(...weights));
    const dest = { core: world.cores[to], range: bounce };
    yield* nics().transfer(rail, { core: myCore, range: data }, dest, { rank: me, label: `eager->${to} rail ${rail}` });
    arrived.fire();
  }

  /** Each rail's chunk of `data` into the same bytes of `into`, all at once. */
  function* writeAcrossRails(to: number, data: Range, into: Range): Program<void> {
    const chunks = splitAcrossRails(data.bytes, weightsFor(data));
    const flows = [];
    let offset = 0;
    for (const [rail, bytes] of chunks.entries()) {
      if (bytes === 0) continue;
      const from = { core: myCore, range: subRange(data, offset, bytes) };
      const dest = { core: world.cores[to], range: subRange(into, offset, bytes) };
      const label = `rdma->${to} rail ${rail}`;
      flows.push(world.sim.spawn(`r${me} ${label}`, nics().transfer(rail, from, dest, { rank: me, label })));
      offset += bytes;
    }
    yield* wait(all(flows));
  }

  return {
    remote: (peer) => hostOf(peer) !== myHost,

    *send(to, data, tag) {
      const arrived = new Signal<void>(`message r${me}->r${to} tag ${tag} arrived`);
      const eager = data.bytes <= netCosts.eagerLimitBytes;
      const home = node.topo.core(world.cores[to]).numa;
      const bounce = eager ? range(node.allocate(`net eager r${me}>r${to}`, data.bytes, -1, home)) : undefined;
      const packet: FirstPacket = { bytes: data.bytes, bounce, arrived };
      world.deliver(me, to, channel('first', tag), packet, 0);
      if (bounce) {
        yield* sendEager(to, data, bounce, arrived);
        return;
      }
      yield* bookkeeping(`rts->${to}`);
      world.sim.schedule(nics().railLatency(myHost, 0), () => arrived.fire());
      const start = world.sim.now;
      const { into, written } = (yield* world.receive(to, me, channel('cts', tag))) as ClearToSend;
      node.trace.record({ rank: me, kind: 'wait', label: `cts<-${to}`, start, end: world.sim.now, bytes: 0 });
      yield* writeAcrossRails(to, data, into);
      // The completion rides on the last write: the receiver learns it when the data has landed.
      written.fire();
    },

    *recv(from, into, tag) {
      const start = world.sim.now;
      const first = (yield* world.receive(from, me, channel('first', tag))) as FirstPacket;
      yield* first.arrived.wait();
      node.trace.record({ rank: me, kind: 'wait', label: `recv<-${from}`, start, end: world.sim.now, bytes: 0 });
      const { bytes, bounce } = first;
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
      yield* bookkeeping(`cts->${from}`);
      const written = new Signal<void>(`message r${from}->r${me} tag ${tag} written`);
      const cts: ClearToSend = { into: subRange(into, 0, bytes), written };
      world.deliver(me, from, channel('cts', tag), cts, nics().railLatency(myHost, 0));
      const waited = world.sim.now;
      yield* written.wait();
      node.trace.record({
        rank: me,
        kind: 'wait',
        label: `rdma<-${from}`,
        start: waited,
        end: world.sim.now,
        bytes: 0,
      });
    },
  };
}
