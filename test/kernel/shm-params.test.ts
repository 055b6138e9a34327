import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Simulation } from '../../sim/engine/simulation.ts';
import type { Program } from '../../sim/engine/program.ts';
import { Node } from '../../sim/node/node.ts';
import { World } from '../../sim/node/world.ts';
import { Content } from '../../sim/node/content.ts';
import { range } from '../../sim/node/buffer.ts';
import { InputError } from '../../common/input-error.ts';
import { createPointToPoint, parsePointToPointOptions, type PointToPointOptions } from '../../sim/kernel/p2p.ts';
import { vaderFastBoxBytes } from '../../sim/kernel/shm/costs.ts';
import { nemesisCopyBuffers } from '../../sim/kernel/shm/nemesis.ts';
import { transportParams } from '../../sim/kernel/transport-params.ts';
import { tinyMachine } from '../helpers/machines.ts';
import { runPrograms } from '../helpers/run-programs.ts';

/** One message of `bytes` from rank 0 to rank 1 with `options` (Nemesis unless they say); what it left behind. */
function send(bytes: number, options: PointToPointOptions, cores = [0, 1]) {
  const sim = new Simulation({ seed: 'nemesis params' });
  const node = new Node(sim, tinyMachine(), { keepTrace: true });
  const world = new World(node, cores);
  const p2p = [0, 1].map((r) => createPointToPoint(world, r, options));
  const src = node.allocate('r0.src', bytes, 0, 0);
  src.content = Content.fresh(bytes, 'r0.src');
  const dst = node.allocate('r1.dst', bytes, 1, 0);
  const [end] = runPrograms(sim, [p2p[0].send(1, range(src)), p2p[1].recv(0, range(dst))]);
  return {
    end,
    delivered: dst.content.equals(Content.fresh(bytes, 'r0.src')),
    copyBuffers: nemesisCopyBuffers(world),
    lmtCopies: node.trace.events.filter((e) => e.label.startsWith('lmt copy-in')).map((e) => e.bytes),
    lmtIns: node.trace.events.filter((e) => e.label.startsWith('lmt copy-in')),
    lmtOuts: node.trace.events.filter((e) => e.label.startsWith('lmt copy-out')),
    packs: node.trace.events.filter((e) => e.label === 'pack frag->1').map((e) => e.bytes),
    rts: node.trace.events.some((e) => e.label === 'post rts->1'),
    bodyInFastbox: node.trace.events.filter((e) => e.label === 'copy-in fastbox->1' && e.bytes > 0).length,
    bodyInCells: node.trace.events.filter((e) => e.label === 'copy-in cell->1').length,
  };
}

describe('shared-memory transport parameters', () => {
  it('sends up to eagerLimit eagerly and above it through the LMT', () => {
    const under = send(200_000, { eagerLimit: 256 * 1024 });
    expect(under.delivered).toBe(true);
    expect(under.rts).toBe(false);
    expect(under.copyBuffers).toEqual([]);
    const over = send(200_000, { eagerLimit: 100_000 });
    expect(over.delivered).toBe(true);
    expect(over.copyBuffers).toEqual(['0-1']);
  });

  it('with eagerLimit 0, every non-empty message takes the rendezvous', () => {
    const r = send(1, { eagerLimit: 0 });
    expect(r.delivered).toBe(true);
    expect(r.rts).toBe(true);
  });

  it('with the LMT off, a large message goes RTS, CTS, then through cells, and no copy buffer is made', () => {
    const r = send(300_000, { lmt: false });
    expect(r.delivered).toBe(true);
    expect(r.rts).toBe(true);
    expect(r.copyBuffers).toEqual([]);
    expect(r.lmtCopies).toEqual([]);
    // The body follows the CTS as cells only: MPICH2 sends it with MPID_nem_mpich2_sendv, which
    // never tries the fastbox (only a packet carrying a whole message does).
    expect(r.bodyInFastbox).toBe(0);
    expect(r.bodyInCells).toBeGreaterThan(0);
  });

  it('pipelines the LMT in chunks of lmtChunk, and of at most 16 KiB up to 128 KiB', () => {
    const r = send(200_000, { lmtChunk: 60_000 });
    expect(r.delivered).toBe(true);
    expect(r.lmtCopies).toEqual([60_000, 60_000, 60_000, 20_000]);
    // MPICH2's PIPELINE_MAX_SIZE below PIPELINE_THRESHOLD (mpid_nem_lmt_shm.c).
    const small = send(100_000, {});
    expect(small.delivered).toBe(true);
    expect(small.lmtCopies).toEqual([...new Array(6).fill(16_384), 100_000 - 6 * 16_384]);
  });

  it('cuts a message of up to 128 KiB in 16 KiB chunks and a larger one in whole slots', () => {
    expect(send(128 * 1024, {}).lmtCopies).toEqual(new Array(8).fill(16_384));
    expect(send(128 * 1024 + 1, {}).lmtCopies).toEqual([...new Array(4).fill(32_768), 1]);
  });

  it('puts chunk k in slot k of the ring, each slot lmtChunk apart, from slot 0 for every message', () => {
    // 100,000 bytes: seven 16 KiB chunks (PIPELINE_MAX_SIZE) in 32 KiB slots; sent twice.
    const sim = new Simulation({ seed: 'ring slots' });
    const node = new Node(sim, tinyMachine());
    const world = new World(node, [0, 1]);
    const p2p = [0, 1].map((r) => createPointToPoint(world, r, {}));
    const offsets: number[] = [];
    const prepare = node.prepareCopy.bind(node);
    node.prepareCopy = (core, src, dst, info) => {
      if (info.label.startsWith('lmt copy-in')) offsets.push(dst.offset);
      return prepare(core, src, dst, info);
    };
    const bytes = 100_000;
    const src = node.allocate('r0.src', bytes, 0, 0);
    src.content = Content.fresh(bytes, 'r0.src');
    const dst = node.allocate('r1.dst', bytes, 1, 0);
    const twice = (program: () => Program<void>): Program<void> =>
      (function* () {
        yield* program();
        yield* program();
      })();
    runPrograms(sim, [twice(() => p2p[0].send(1, range(src))), twice(() => p2p[1].recv(0, range(dst)))]);
    expect(dst.content.equals(Content.fresh(bytes, 'r0.src'))).toBe(true);
    const once = Array.from({ length: 7 }, (_, k) => k * 32 * 1024);
    expect(offsets).toEqual([...once, ...once]);
  });

  it('refuses a ring without slots or chunks when built directly', () => {
    const world = new World(new Node(new Simulation(), tinyMachine()), [0, 1]);
    expect(() => createPointToPoint(world, 0, { lmtSlots: 0 })).toThrow(
      /lmtSlots must be a whole number of at least 1/,
    );
    expect(() => createPointToPoint(world, 0, { lmtChunk: 1.5 })).toThrow(/lmtChunk must be a whole number/);
  });

  it('lets the sender run lmtSlots chunks ahead of the receiver', () => {
    // One slot: chunk k+1 goes in only once chunk k is out. Eight: the sender does not wait for
    // the receiver's copy of the previous chunk.
    const one = send(1024 * 1024, { lmtSlots: 1 });
    expect(one.delivered).toBe(true);
    one.lmtIns.slice(1).forEach((e, k) => expect(e.start).toBeGreaterThanOrEqual(one.lmtOuts[k].end));
    const eight = send(1024 * 1024, { lmtSlots: 8 });
    expect(eight.delivered).toBe(true);
    expect(eight.lmtIns.slice(1).some((e, k) => e.start < eight.lmtOuts[k].end)).toBe(true);
    expect(eight.end).toBeLessThan(one.end);
  });

  it("pipelines the sm BTL's rendezvous in fragments of smFragment", () => {
    const r = send(20_000, { shm: 'sm', smFragment: 6000 });
    expect(r.delivered).toBe(true);
    // The rendezvous header carries what the 4 KiB eager fragment holds beside ob1's header (72
    // bytes), the rest follows in fragments of 6000 less ob1's fragment header (32 bytes).
    expect(r.packs).toEqual([4024, 5968, 5968, 4040]);
  });

  it("keeps smPipelineDepth of the sm BTL's fragments in flight", () => {
    // Across sockets the receiver unpacks more slowly than the sender packs, so the depth binds: one
    // fragment in flight is slower than four, and with one the sender packs each fragment only
    // after the receiver has unpacked the one before.
    const one = send(300_000, { shm: 'sm', smPipelineDepth: 1 }, [0, 2]);
    const four = send(300_000, { shm: 'sm', smPipelineDepth: 4 }, [0, 2]);
    expect(one.delivered && four.delivered).toBe(true);
    expect(one.end).toBeGreaterThan(four.end);
  });

  it("charges nemesisSideNs for the library's work on each side of every packet, and nothing with 0", () => {
    const steps = (options: PointToPointOptions, bytes: number) => {
      const sim = new Simulation({ seed: 'nemesis side' });
      const node = new Node(sim, tinyMachine(), { keepTrace: true });
      const world = new World(node, [0, 1]);
      const p2p = [0, 1].map((r) => createPointToPoint(world, r, options));
      const src = node.allocate('r0.src', bytes, 0, 0);
      src.content = Content.fresh(bytes, 'r0.src');
      const dst = node.allocate('r1.dst', bytes, 1, 0);
      const [, end] = runPrograms(sim, [p2p[0].send(1, range(src)), p2p[1].recv(0, range(dst))]);
      const side = node.trace.events.filter((e) => /^(post|match) /.test(e.label));
      return { end, delivered: dst.content.equals(Content.fresh(bytes, 'r0.src')), side };
    };
    // An eager message: one packet, a post and a match; a rendezvous: RTS and CTS, each both sides.
    for (const [bytes, packets] of [
      [4096, 1],
      [200_000, 2],
    ]) {
      const base = steps({}, bytes);
      const custom = steps({ nemesisSideNs: 130 }, bytes);
      const none = steps({ nemesisSideNs: 0 }, bytes);
      expect(base.delivered && custom.delivered && none.delivered).toBe(true);
      expect(custom.side.map((e) => e.end - e.start)).toEqual(Array(2 * packets).fill(130));
      expect(none.side).toEqual([]);
      expect(none.end).toBeLessThan(base.end);
      expect(custom.end).toBeGreaterThan(base.end);
    }
  });

  describe("vader's fast box", () => {
    /**
     * `count` messages of `bytes` from rank 0 to rank 1, each with its own contents. `lockstep`:
     * rank 1 answers each with an empty message before the next goes (the ring never fills);
     * otherwise rank 1 starts receiving only once rank 0 has sent them all.
     */
    const run = (bytes: number, count: number, smFastBox: number, lockstep: boolean) => {
      const sim = new Simulation({ seed: 'fast box' });
      const node = new Node(sim, tinyMachine(), { keepTrace: true });
      const world = new World(node, [0, 1]);
      const p2p = [0, 1].map((r) => createPointToPoint(world, r, { shm: 'sm', smFastBox }));
      const srcs = Array.from({ length: count }, (_, i) => {
        const b = node.allocate(`r0.src${i}`, bytes, 0, 0);
        b.content = Content.fresh(bytes, `message ${i}`);
        return b;
      });
      const dst = node.allocate('r1.dst', bytes, 1, 0);
      const empty = [node.allocate('r0.empty', 0, 0, 0), node.allocate('r1.empty', 0, 1, 0)];
      let sent = false;
      let wrong = 0;
      runPrograms(sim, [
        (function* () {
          for (let i = 0; i < count; i++) {
            yield* p2p[0].send(1, range(srcs[i]));
            if (lockstep) yield* p2p[0].recv(1, range(empty[0]));
          }
          sent = true;
        })(),
        (function* () {
          if (!lockstep) while (!sent) yield* sim.sleep(1000);
          for (let i = 0; i < count; i++) {
            dst.content = Content.uninitialised(bytes);
            yield* p2p[1].recv(0, range(dst));
            if (!dst.content.equals(Content.fresh(bytes, `message ${i}`))) wrong++;
            if (lockstep) yield* p2p[1].send(0, range(empty[1]));
          }
        })(),
      ]);
      const posted = (label: string) => node.trace.events.filter((e) => e.rank === 0 && e.label === label).length;
      return { wrong, boxed: posted('post eager->1 (fast box)'), fifo: posted('post eager->1'), end: sim.now };
    };

    it('takes eager messages once 16 fragments have gone to the peer, and a message is received sooner', () => {
      const boxed = run(200, 20, 1024, true);
      expect(boxed.wrong).toBe(0);
      expect([boxed.fifo, boxed.boxed]).toEqual([16, 4]);
      const without = run(200, 20, 0, true);
      expect([without.fifo, without.boxed]).toEqual([20, 0]);
      // No fragment to take and return, no FIFO write: the same exchange ends sooner.
      expect(boxed.end).toBeLessThan(without.end);
    });

    it('takes data and match header up to the limit, not a byte more', () => {
      // Open MPI's limit: 256 bytes of data inline, with ob1's 14-byte header.
      expect(vaderFastBoxBytes).toBe(270);
      expect(run(256, 20, vaderFastBoxBytes, true).boxed).toBe(4);
      expect(run(257, 20, vaderFastBoxBytes, true).boxed).toBe(0);
    });

    it('sends by fragment when the receiver has not yet taken what fills the ring, and loses nothing', () => {
      // 200 bytes with vader's 8-byte and ob1's 14-byte headers take 224 bytes (a multiple of 32) of
      // the ring's 4064: 18 fit, then it would start over at places still held. Every message
      // arrives with its own contents.
      const behind = run(200, 40, 1024, false);
      expect(behind.wrong).toBe(0);
      expect(behind.boxed).toBe(18);
      expect(behind.fifo).toBe(22);
      // In lockstep the ring wraps many times over and every message after the 16th is boxed.
      const wraps = run(1000, 40, 1024, true);
      expect(wraps.wrong).toBe(0);
      expect(wraps.boxed).toBe(24);
    });
  });

  it('reads and checks the parameters, naming the one at fault', () => {
    expect(parsePointToPointOptions({ eagerLimit: 0, lmt: false })).toEqual({ eagerLimit: 0, lmt: false });
    expect(parsePointToPointOptions({ lmtChunk: 4096, shm: 'nemesis' })).toEqual({ lmtChunk: 4096, shm: 'nemesis' });
    const where = { file: 'x.yaml', field: 'algorithms[0].params' };
    const fails = (params: Record<string, unknown>, field: string, message: RegExp) => {
      try {
        parsePointToPointOptions(params, where);
        expect.unreachable();
      } catch (e) {
        expect(e).toBeInstanceOf(InputError);
        expect((e as InputError).message).toMatch(message);
        expect((e as InputError).location.field).toBe(`algorithms[0].params.${field}`);
      }
    };
    fails({ eagerLimit: -1 }, 'eagerLimit', /whole number of bytes/);
    fails({ lmtChunk: 0 }, 'lmtChunk', /at least 1/);
    fails({ lmtSlots: 0 }, 'lmtSlots', /at least 1/);
    fails({ lmtSlots: 2.5 }, 'lmtSlots', /whole number/);
    fails({ lmt: false, lmtSlots: 2 }, 'lmtSlots', /lmt is false/);
    fails({ shm: 'sm', lmtSlots: 2 }, 'lmtSlots', /configures Nemesis/);
    fails({ lmt: 'no' }, 'lmt', /true or false/);
    fails({ shm: 'sm', lmt: true }, 'lmt', /configures Nemesis/);
    fails({ shm: 'sm', eagerLimit: 4096 }, 'eagerLimit', /configures Nemesis/);
    fails({ nemesisSideNs: -1 }, 'nemesisSideNs', /at least 0/);
    fails({ nemesisSideNs: 'fast' }, 'nemesisSideNs', /a number of ns/);
    fails({ shm: 'sm', nemesisSideNs: 0 }, 'nemesisSideNs', /configures Nemesis/);
    expect(parsePointToPointOptions({ nemesisSideNs: 0 })).toEqual({ nemesisSideNs: 0 });
    fails({ lmt: false, single: 'knem' }, 'lmt', /single is "knem"/);
    fails({ lmt: false, lmtChunk: 8192 }, 'lmtChunk', /but lmt is false/);
    fails({ smFragment: 8192 }, 'smFragment', /configures Open MPI's sm BTL, but shm is "nemesis"/);
    fails({ shm: 'sm', smFragment: 32 }, 'smFragment', /at least 33/);
    fails({ smPipelineDepth: 8 }, 'smPipelineDepth', /configures Open MPI's sm BTL, but shm is "nemesis"/);
    fails({ shm: 'sm', smPipelineDepth: 0 }, 'smPipelineDepth', /at least 1/);
    fails({ shm: 'sm', smPipelineDepth: 1.5 }, 'smPipelineDepth', /whole number/);
    fails({ smFastBox: 1024 }, 'smFastBox', /configures Open MPI's sm BTL, but shm is "nemesis"/);
    fails({ shm: 'sm', smFastBox: -1 }, 'smFastBox', /whole number of bytes/);
    fails({ shm: 'sm', smFastBox: 8192 }, 'smFastBox', /at most the fast box's 4096 bytes/);
    expect(parsePointToPointOptions({ shm: 'sm', smFastBox: 1024 })).toEqual({ shm: 'sm', smFastBox: 1024 });
  });

  it('refuses a Nemesis option over the sm BTL when called directly', () => {
    const sim = new Simulation({ seed: 'x' });
    const world = new World(new Node(sim, tinyMachine()), [0, 1]);
    expect(() => createPointToPoint(world, 0, { shm: 'sm', lmtChunk: 4096 })).toThrow(/configures Nemesis/);
    expect(() => createPointToPoint(world, 0, { nemesisSideNs: -5 })).toThrow(
      /nemesisSideNs must be a number of ns of at least 0/,
    );
    expect(() => createPointToPoint(world, 0, { smFragment: 4096 })).toThrow(/configures the sm BTL/);
    expect(() => createPointToPoint(world, 0, { smPipelineDepth: 4 })).toThrow(/configures the sm BTL/);
  });
});

describe('transport parameters in docs/architecture.md', () => {
  it('names every transport parameter', () => {
    const doc = readFileSync(join(import.meta.dirname, '../../docs/architecture.md'), 'utf8');
    const heading = '**Transport parameters belong to the transports, not to algorithms.**';
    expect(doc).toContain(heading);
    const paragraph = doc.slice(doc.indexOf(heading));
    const named = paragraph.slice(0, paragraph.indexOf('\n- '));
    expect(transportParams.map((p) => p.name).filter((name) => !named.includes(`\`${name}\``))).toEqual([]);
  });
});
