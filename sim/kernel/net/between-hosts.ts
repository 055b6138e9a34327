// Point-to-point between ranks on different hosts, as an MPI library's RDMA-write rendezvous does
// it (Open MPI's ob1 over openib or MX): the sender's request-to-send crosses the wire, the
// receiver answers with its buffer once the receive is posted, the sender's NICs write the
// message straight into it, one chunk per rail in parallel (rails.ts), and the last write tells
// the receiver. Every message takes this path; an eager path for small messages is not modelled,
// so small messages pay two more wire latencies than a real library charges them.
import { all } from '../../engine/combinators.ts';
import { wait, type Program } from '../../engine/program.ts';
import { subRange, type Range } from '../../node/buffer.ts';
import { NicDma } from '../../node/nic-dma.ts';
import { softwareCosts } from '../../node/software-costs.ts';
import type { World } from '../../node/world.ts';
import { railWeights, splitAcrossRails, type RailOptions } from './rails.ts';

interface RequestToSend {
  bytes: number;
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

  return {
    remote: (peer) => hostOf(peer) !== myHost,

    *send(to, data, tag) {
      const rts: RequestToSend = { bytes: data.bytes };
      yield* control(to, 'rts', tag, rts);
      const { into } = (yield* receive(to, 'cts', tag, `cts<-${to}`)) as ClearToSend;
      const numa = data.buf.home ?? node.topo.core(myCore).numa;
      const chunks = splitAcrossRails(data.bytes, railWeights(nics(), myHost, numa, rails));
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
      const { bytes } = (yield* receive(from, 'rts', tag, `rts<-${from}`)) as RequestToSend;
      if (bytes > into.bytes) {
        throw new RangeError(
          `rank ${me} posted a receive of ${into.bytes} bytes from rank ${from} (tag ${tag}), which sent ${bytes}`,
        );
      }
      const cts: ClearToSend = { into: subRange(into, 0, bytes) };
      yield* control(from, 'cts', tag, cts);
      yield* receive(from, 'fin', tag, `rdma<-${from}`);
    },
  };
}
