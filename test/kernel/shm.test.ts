import { describe, expect, it } from 'vitest';
import { Simulation } from '../../sim/engine/simulation.ts';
import type { Program } from '../../sim/engine/program.ts';
import { Node } from '../../sim/node/node.ts';
import { World } from '../../sim/node/world.ts';
import { nemesisCopyBuffers } from '../../sim/kernel/shm/nemesis.ts';
import { smEagerFragments, smFreeList } from '../../sim/kernel/shm/sm-btl.ts';
import { Content, expectedFresh, piecesEqual } from '../../sim/node/content.ts';
import { range, type Buffer } from '../../sim/node/buffer.ts';
import type { MachineSpec } from '../../hardware/spec.ts';
import { createPointToPoint, type PointToPointOptions } from '../../sim/kernel/p2p.ts';
import { QueueLines } from '../../sim/kernel/shm/lines.ts';
import { nemesisCosts, smBtlCosts } from '../../sim/kernel/shm/costs.ts';
import type { ShmProtocol } from '../../sim/kernel/shm/packet.ts';
import { tinyMachine } from '../helpers/machines.ts';
import { runPrograms } from '../helpers/run-programs.ts';

/** Two ranks on the given cores; rank 0 holds `bytes` of fresh data, rank 1 an empty buffer. */
function pair(
  shm: ShmProtocol,
  cores: number[],
  bytes: number,
  spec: MachineSpec = tinyMachine(),
  options: PointToPointOptions = {},
) {
  const sim = new Simulation({ seed: 'shm' });
  const node = new Node(sim, spec, { keepTrace: true });
  const world = new World(node, cores);
  const p2p = cores.map((_, r) => createPointToPoint(world, r, { shm, ...options }));
  const buf = (rank: number, name: string, fresh: boolean): Buffer => {
    const b = node.allocate(`r${rank}.${name}`, bytes, rank, node.topo.core(cores[rank]).numa);
    if (fresh) b.content = Content.fresh(bytes, b.name);
    return b;
  };
  /** Runs one program per rank to the end; returns each rank's finishing time. */
  const run = (programs: Program<void>[]): number[] => runPrograms(sim, programs);
  return { sim, node, world, p2p, buf, run };
}

/** One 64-byte message from rank 0 to rank 1; returns [sender done, receiver done] in ns. */
function smallMessage(shm: ShmProtocol, cores: number[]) {
  const t = pair(shm, cores, 64);
  const src = t.buf(0, 'src', true);
  const dst = t.buf(1, 'dst', false);
  const done = t.run([t.p2p[0].send(1, range(src)), t.p2p[1].recv(0, range(dst))]);
  expect(dst.content.equals(Content.fresh(64, 'r0.src'))).toBe(true);
  return { done, events: t.node.trace.events };
}

// The tiny machine (test/helpers/machines.ts): 2 packages x 2 cores, copy engine 8 B/ns, memory
// 10 B/ns at 80 ns, L3 (shared per package) 40 B/ns at 15 ns, inter-socket link 4 B/ns at 50 ns.
const side = nemesisCosts.sendSideNs; // = recvSideNs = smBtlCosts.*SideNs
const lineNear = 15; // cores 0 and 1 share the L3
const lineFar = 80 + 50; // cores 0 and 2: a miss to core 0's memory plus the link
// Copy-in: the user buffer comes from memory (80 ns) into the cell, itself cold in memory: the
// source and the cell's read for ownership share the memory's 10 B/ns, so 64 B take 128 B / 10.
const copyIn = 80 + (2 * 64) / 10;
// Copy-out on the same package: from the shared L3 (15 ns), 64 B at 8 B/ns.
const copyOutNear = 15 + 64 / 8;
// Copy-out across sockets: from the remote L3 over the link (15 + 50 ns), 64 B at the link's 4 B/ns.
const copyOutFar = 15 + 50 + 64 / 4;

describe('Nemesis eager message (hand-computed)', () => {
  // Sender: library work, then the copy-in while the fastbox flag's line comes from the receiver
  // (the copy does not wait for it: the longer of the two); the receiver sees the flag one line
  // later, does its library work and copies out.
  it('between cores sharing a cache: the copy-in covers the flag check', () => {
    const { done } = smallMessage('nemesis', [0, 1]);
    expect(copyIn).toBeGreaterThan(lineNear);
    expect(done[0]).toBe(side + copyIn);
    expect(done[1]).toBe(side + copyIn + lineNear + side + copyOutNear);
  });

  it('between cores on different sockets: the flag check outlasts the copy-in', () => {
    const { done } = smallMessage('nemesis', [0, 2]);
    expect(lineFar).toBeGreaterThan(copyIn);
    expect(done[0]).toBe(side + lineFar);
    expect(done[1]).toBe(side + lineFar + lineFar + side + copyOutFar);
  });

  it('goes through the fastbox, not a queue cell', () => {
    const { events } = smallMessage('nemesis', [0, 1]);
    expect(events.some((e) => e.label === 'copy-in fastbox->1')).toBe(true);
    expect(events.some((e) => e.label.startsWith('enqueue'))).toBe(false);
  });
});

describe('Open MPI sm BTL eager message (hand-computed)', () => {
  // Sender: library work, pack into an eager fragment, write its pointer into the receiver's FIFO
  // (the FIFO lock's line and the slot's line, both last held by the receiver); the receiver sees
  // it one line later, unpacks, then returns the fragment through the sender's FIFO (two lines).
  it('between cores sharing a cache', () => {
    const { done } = smallMessage('sm', [0, 1]);
    expect(done[0]).toBe(side + copyIn + 2 * lineNear);
    expect(done[1]).toBe(side + copyIn + 2 * lineNear + lineNear + side + copyOutNear + 2 * lineNear);
  });

  it('between cores on different sockets', () => {
    const { done } = smallMessage('sm', [0, 2]);
    expect(done[0]).toBe(side + copyIn + 2 * lineFar);
    expect(done[1]).toBe(side + copyIn + 2 * lineFar + lineFar + side + copyOutFar + 2 * lineFar);
  });
});

describe('Nemesis queues', () => {
  const topo = new Node(new Simulation(), tinyMachine()).topo;
  const L = (a: number, b: number) => topo.lineLatency(a, b);

  it('enqueue swaps the tail and, only onto an empty queue, writes the head', () => {
    const q = new QueueLines(topo, 0);
    expect(q.enqueue(2)).toBe(L(0, 2) + L(0, 2)); // tail and head both in the owner's lines
    expect(q.enqueue(2)).toBe(0); // tail already here; queue not empty: no head miss
    expect(q.enqueue(1)).toBe(L(2, 1)); // tail pulled from the last enqueuer
    expect(q.length).toBe(3);
  });

  it('dequeue misses only when it takes the last element', () => {
    const q = new QueueLines(topo, 0);
    q.enqueue(2);
    q.enqueue(3);
    expect(q.dequeue()).toBe(0);
    expect(q.dequeue()).toBe(L(3, 0)); // compare-and-swap of the tail last written by core 3
    expect(() => q.dequeue()).toThrow(/empty/);
  });

  it('a message finding the fastbox still full goes through a cell of the queue', () => {
    const t = pair('nemesis', [0, 1], 100);
    const a = t.buf(0, 'a', true);
    const b = t.buf(0, 'b', true);
    const x = t.buf(1, 'x', false);
    const y = t.buf(1, 'y', false);
    t.run([
      (function* () {
        yield* t.p2p[0].send(1, range(a));
        yield* t.p2p[0].send(1, range(b));
      })(),
      (function* () {
        yield* t.sim.sleep(10_000); // both messages wait, unexpected
        yield* t.p2p[1].recv(0, range(x));
        yield* t.p2p[1].recv(0, range(y));
      })(),
    ]);
    const labels = t.node.trace.events.map((e) => e.label);
    expect(labels).toContain('copy-in fastbox->1');
    expect(labels).toContain('copy-in cell->1');
    expect(labels).toContain('enqueue->1');
    expect(labels).toContain('return cell->0');
    expect(x.content.equals(Content.fresh(100, 'r0.a'))).toBe(true);
    expect(y.content.equals(Content.fresh(100, 'r0.b'))).toBe(true);
  });

  it("sends eagerly what fits one cell with ch3's headers, in the fastbox; 64 KiB already takes the LMT", () => {
    // MPICH2 1.3.1: eager while data_sz + sizeof(eager header) <= DATA_LEN - sizeof(packet union).
    expect(nemesisCosts.eagerLimitBytes).toBeLessThan(nemesisCosts.cellDataBytes);
    const copyIns = (bytes: number) => {
      const t = pair('nemesis', [0, 1], bytes);
      const src = t.buf(0, 'src', true);
      const dst = t.buf(1, 'dst', false);
      t.run([t.p2p[0].send(1, range(src)), t.p2p[1].recv(0, range(dst))]);
      expect(dst.content.equals(Content.fresh(bytes, 'r0.src'))).toBe(true);
      return t.node.trace.events.filter((e) => e.kind === 'copy' && e.rank === 0).map((e) => e.label);
    };
    expect(copyIns(nemesisCosts.eagerLimitBytes)).toEqual(['copy-in fastbox->1']);
    expect(copyIns(64 * 1024)).toEqual(new Array(4).fill('lmt copy-in ->1'));
  });

  it('an eager message larger than one cell (a raised eagerLimit) goes in cells, the first too, not the fastbox', () => {
    const bytes = nemesisCosts.cellDataBytes + 1000;
    const sim = new Simulation({ seed: 'shm' });
    const node = new Node(sim, tinyMachine(), { keepTrace: true });
    const world = new World(node, [0, 1]);
    const p2p = [0, 1].map((r) => createPointToPoint(world, r, { eagerLimit: 256 * 1024 }));
    const src = node.allocate('r0.src', bytes, 0, 0);
    src.content = Content.fresh(bytes, 'r0.src');
    const dst = node.allocate('r1.dst', bytes, 1, 0);
    runPrograms(sim, [p2p[0].send(1, range(src)), p2p[1].recv(0, range(dst))]);
    const copyIns = node.trace.events.filter((e) => e.kind === 'copy' && e.rank === 0);
    expect(copyIns.map((e) => [e.label, e.bytes])).toEqual([
      ['copy-in cell->1', nemesisCosts.cellDataBytes],
      ['copy-in cell->1', 1000],
    ]);
    expect(dst.content.equals(Content.fresh(bytes, 'r0.src'))).toBe(true);
  });
});

describe('Nemesis large-message transfer', () => {
  const bytes = 256 * 1024;

  it('moves 256 KiB in 32 KiB chunks through the shared copy buffer after RTS and CTS', () => {
    const t = pair('nemesis', [0, 2], bytes);
    const src = t.buf(0, 'src', true);
    const dst = t.buf(1, 'dst', false);
    t.run([t.p2p[0].send(1, range(src)), t.p2p[1].recv(0, range(dst))]);
    const events = t.node.trace.events;
    const ins = events.filter((e) => e.label === 'lmt copy-in ->1');
    const outs = events.filter((e) => e.label === 'lmt copy-out <-0');
    expect(ins.map((e) => e.bytes)).toEqual(new Array(8).fill(32768));
    expect(outs.map((e) => e.bytes)).toEqual(new Array(8).fill(32768));
    expect(events.some((e) => e.kind === 'control' && e.label === 'post rts->1')).toBe(true);
    expect(events.some((e) => e.kind === 'control' && e.label === 'post cts->0')).toBe(true);
    // Chunk k+1 is copied in while chunk k is copied out.
    expect(ins[1].start).toBeLessThan(outs[0].end);
    expect(dst.content.equals(Content.fresh(bytes, 'r0.src'))).toBe(true);
  });

  it('overlaps copy-in and copy-out: faster than two whole-message copies', () => {
    for (const cores of [
      [0, 1],
      [0, 2],
    ]) {
      const t = pair('nemesis', cores, bytes);
      const src = t.buf(0, 'src', true);
      const dst = t.buf(1, 'dst', false);
      const done = t.run([t.p2p[0].send(1, range(src)), t.p2p[1].recv(0, range(dst))]);

      // One copy of the whole message straight from the sender's buffer by the receiver's core
      // (what a single-copy mechanism does), on a fresh node with the same placement.
      const ref = pair('nemesis', cores, bytes);
      const a = ref.buf(0, 'a', true);
      const b = ref.buf(1, 'b', false);
      const [oneCopy] = ref.run([ref.node.copy(cores[1], range(a), range(b), { rank: 1, label: 'whole' })]);

      expect(done[1]).toBeLessThan(2 * oneCopy);
      expect(done[1]).toBeGreaterThan(oneCopy);
    }
  });

  it('allocates the copy buffer once per pair and reuses it', () => {
    const t = pair('nemesis', [0, 1], bytes);
    const src = t.buf(0, 'src', true);
    const dst = t.buf(1, 'dst', false);
    t.run([
      (function* () {
        yield* t.p2p[0].send(1, range(src));
        yield* t.p2p[0].send(1, range(src));
      })(),
      (function* () {
        yield* t.p2p[1].recv(0, range(dst));
        yield* t.p2p[1].recv(0, range(dst));
      })(),
    ]);
    expect(nemesisCopyBuffers(t.world)).toEqual(['0-1']);
  });

  // Ping-ping: each rank sends 256 KiB to the other and receives the other's.
  function crossing(options: PointToPointOptions) {
    const t = pair('nemesis', [0, 2], bytes, tinyMachine(), options);
    const src = [t.buf(0, 'src', true), t.buf(1, 'src', true)];
    const dst = [t.buf(0, 'dst', false), t.buf(1, 'dst', false)];
    const both = (me: number) =>
      (function* () {
        const sent = yield* t.p2p[me].isend(1 - me, range(src[me]));
        yield* t.p2p[me].recv(1 - me, range(dst[me]));
        yield* sent();
      })();
    t.run([both(0), both(1)]);
    expect(dst[0].content.equals(Content.fresh(bytes, 'r1.src'))).toBe(true);
    expect(dst[1].content.equals(Content.fresh(bytes, 'r0.src'))).toBe(true);
    const copies = t.node.trace.events.filter((e) => e.label.startsWith('lmt copy'));
    const span = (labels: string[]) => {
      const mine = copies.filter((e) => labels.includes(e.label));
      return [Math.min(...mine.map((e) => e.start)), Math.max(...mine.map((e) => e.end))];
    };
    const a = span(['lmt copy-in ->1', 'lmt copy-out <-0']);
    const b = span(['lmt copy-in ->0', 'lmt copy-out <-1']);
    return { buffers: nemesisCopyBuffers(t.world), apart: a[1] <= b[0] || b[1] <= a[0] };
  }

  it('one buffer per pair of processes: two LMTs crossing between the same ranks take turns', () => {
    // MPICH2's copy buffer belongs to the pair; the receiver frees it once it has drained the last chunk.
    expect(crossing({})).toEqual({ buffers: ['0-1'], apart: true });
  });

  it('with a buffer per direction (lmtBuffer: direction), the two ways run at once', () => {
    expect(crossing({ lmtBuffer: 'direction' })).toEqual({ buffers: ['0>1', '1>0'], apart: false });
  });
});

describe('Open MPI sm BTL fragments', () => {
  // ob1's data per fragment: the BTL's fragment less ob1's header.
  const eagerLimit = smBtlCosts.eagerFragmentBytes - smBtlCosts.headerBytes;
  const max = smBtlCosts.maxFragmentBytes - smBtlCosts.fragHeaderBytes;

  /** One message of `bytes` from rank 0 on core 0 to rank 1 on core 2, across sockets, where the
   *  receiver unpacks over the link (4 B/ns), more slowly than the sender packs from memory. */
  function acrossSockets(bytes: number) {
    const t = pair('sm', [0, 2], bytes);
    const src = t.buf(0, 'src', true);
    const dst = t.buf(1, 'dst', false);
    const [sent, received] = t.run([t.p2p[0].send(1, range(src)), t.p2p[1].recv(0, range(dst))]);
    const events = t.node.trace.events;
    return {
      world: t.world,
      sent,
      received,
      events,
      packs: events.filter((e) => e.label === 'pack frag->1'),
      unpacks: events.filter((e) => e.label === 'unpack frag<-0'),
      delivered: dst.content.equals(Content.fresh(bytes, 'r0.src')),
    };
  }

  it('sends up to the eager limit in one eager fragment, its header in the 4 KiB fragment', () => {
    const t = pair('sm', [0, 1], eagerLimit);
    const src = t.buf(0, 'src', true);
    const dst = t.buf(1, 'dst', false);
    t.run([t.p2p[0].send(1, range(src)), t.p2p[1].recv(0, range(dst))]);
    const packs = t.node.trace.events.filter((e) => e.label === 'pack frag->1');
    expect(packs.map((e) => e.bytes)).toEqual([eagerLimit]);
    expect(t.node.trace.events.some((e) => e.kind === 'control')).toBe(false);
    expect(dst.content.equals(Content.fresh(eagerLimit, 'r0.src'))).toBe(true);
    // A whole 4 KiB of data does not fit with the header: it takes the rendezvous.
    const full = pair('sm', [0, 1], smBtlCosts.eagerFragmentBytes);
    full.run([
      full.p2p[0].send(1, range(full.buf(0, 'src', true))),
      full.p2p[1].recv(0, range(full.buf(1, 'dst', false))),
    ]);
    expect(full.node.trace.events.some((e) => e.label === 'post cts->0')).toBe(true);
  });

  it('sends a large message as rendezvous data, an acknowledgement, then a pipeline of max fragments', () => {
    const bytes = 100_000;
    const { events, packs, unpacks, delivered } = acrossSockets(bytes);
    const first = eagerLimit;
    expect(packs.map((e) => e.bytes)).toEqual([first, max, max, bytes - first - 2 * max]);
    expect(events.some((e) => e.kind === 'control' && e.label === 'post cts->0')).toBe(true);
    expect(packs[2].start).toBeLessThan(unpacks[1].end); // packing overlaps unpacking
    expect(delivered).toBe(true);
  });

  it('keeps at most ob1 send_pipeline_depth fragments of a rendezvous in flight', () => {
    // Across sockets an unthrottled sender would run ahead of the receiver; ob1 packs fragment k
    // only once fragment k - depth has come back.
    const run = acrossSockets(eagerLimit + 10 * max);
    const { events } = run;
    // Index 0 is the rendezvous's first fragment, which is not throttled.
    const packs = run.packs.slice(1);
    const unpacks = run.unpacks.slice(1);
    const depth = smBtlCosts.sendPipelineDepth;
    expect(packs).toHaveLength(10);
    for (let k = depth; k < packs.length; k++) expect(packs[k].start).toBeGreaterThan(unpacks[k - depth].end);
    const waits = events.filter((e) => e.label === 'pipeline depth->1' && e.end > e.start);
    expect(waits.length).toBeGreaterThan(0);
    expect(run.delivered).toBe(true);
  });

  it('completes a rendezvous send when its last fragment has come back, not when it is posted', () => {
    const { sent, received, events, packs, unpacks, delivered } = acrossSockets(eagerLimit + 4 * max);
    const lastPack = packs.at(-1)!;
    const lastUnpack = unpacks.at(-1)!;
    // The receiver's unpack ends after the sender posted it; the send ends only once the receiver
    // has handed the fragment back, a line's trip after the receive itself ends.
    expect(lastUnpack.end).toBeGreaterThan(lastPack.end);
    expect(sent).toBeGreaterThan(received);
    expect(events.some((e) => e.label === 'frag completions<-1' && e.end > e.start)).toBe(true);
    expect(delivered).toBe(true);
  });

  it('cycles a throttled transfer through depth + 1 fragments, the last one returned on top', () => {
    // ob1's callback packs the next fragment before the returned one goes back, so a transfer
    // uses one fragment more than the depth; once nothing waits, each returned fragment goes on
    // top, and the next message starts with the one that carried this message's last piece.
    const pieces = 10;
    const run = acrossSockets(eagerLimit + pieces * max);
    expect(run.delivered).toBe(true);
    const { fragments, free } = smFreeList(run.world, 0, 'max');
    expect(fragments).toHaveLength(smBtlCosts.freeListInitial);
    expect([...free].sort()).toEqual(fragments.map((_, i) => i).sort());
    const used = fragments.filter((f) => f.buf.content.slice(f.offset, f.bytes).some((p) => p.origin !== null));
    expect(used).toHaveLength(smBtlCosts.sendPipelineDepth + 1);
    const top = fragments[free[free.length - 1]];
    const last = eagerLimit + (pieces - 1) * max;
    expect(piecesEqual(top.buf.content.slice(top.offset, max), expectedFresh('r0.src', last, max))).toBe(true);
  });

  it('reuses returned fragments instead of growing the free list', () => {
    const t = pair('sm', [0, 1], 1000);
    const src = t.buf(0, 'src', true);
    const dst = t.buf(1, 'dst', false);
    const rounds = 20;
    t.run([
      (function* () {
        for (let i = 0; i < rounds; i++) {
          yield* t.p2p[0].send(1, range(src));
          yield* t.p2p[0].recv(1, range(src));
        }
      })(),
      (function* () {
        for (let i = 0; i < rounds; i++) {
          yield* t.p2p[1].recv(0, range(dst));
          yield* t.p2p[1].send(0, range(dst));
        }
      })(),
    ]);
    expect(smEagerFragments(t.world, 0)).toBe(smBtlCosts.freeListInitial);
  });
});

describe('ping-ping against ping-pong where memory bandwidth is the bottleneck', () => {
  // Memory at 2 B/ns, far below the cores' 8 B/ns; a small L3, so user buffers come from memory.
  const spec = tinyMachine({ memoryBandwidth: 2, l3Bytes: 512 * 1024 });
  const bytes = 1 << 20;

  function perProcessThroughput(shm: ShmProtocol, pattern: 'pingpong' | 'pingping'): number {
    const t = pair(shm, [0, 1], bytes, spec);
    const s0 = t.buf(0, 's', true);
    const r0 = t.buf(0, 'r', false);
    const s1 = t.buf(1, 's', true);
    const r1 = t.buf(1, 'r', false);
    const [p0, p1] = t.p2p;
    const programs =
      pattern === 'pingpong'
        ? [
            (function* () {
              yield* p0.send(1, range(s0));
              yield* p0.recv(1, range(r0));
            })(),
            (function* () {
              yield* p1.recv(0, range(r1));
              yield* p1.send(0, range(s1));
            })(),
          ]
        : [p0.sendrecv(1, range(s0), 1, range(r0)), p1.sendrecv(0, range(s1), 0, range(r1))];
    const done = t.run(programs);
    const span = Math.max(...done);
    // The premise: the sender's copy out of its user buffer is bounded by the memory controller.
    const copyIns = t.node.trace.events.filter(
      (e) => /^(lmt copy-in|pack frag)/.test(e.label) && e.bytes > smBtlCosts.eagerFragmentBytes,
    );
    expect(copyIns.length).toBeGreaterThan(0);
    expect(copyIns.every((e) => e.resource === 'mem0')).toBe(true);
    expect(r0.content.equals(Content.fresh(bytes, 'r1.s'))).toBe(true);
    expect(r1.content.equals(Content.fresh(bytes, 'r0.s'))).toBe(true);
    // Ping-pong: each process moves one message per half round trip; ping-ping: one per span.
    return pattern === 'pingpong' ? bytes / (span / 2) : bytes / span;
  }

  for (const shm of ['nemesis', 'sm'] as const) {
    it(`${shm}: ping-ping gives each process less throughput`, () => {
      expect(perProcessThroughput(shm, 'pingping')).toBeLessThan(perProcessThroughput(shm, 'pingpong'));
    });
  }
});
