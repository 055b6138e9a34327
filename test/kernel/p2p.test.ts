import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Simulation } from '../../sim/engine/simulation.ts';
import type { Program } from '../../sim/engine/program.ts';
import { Node } from '../../sim/node/node.ts';
import { World } from '../../sim/node/world.ts';
import { RunState } from '../../sim/node/run-state.ts';
import { Content } from '../../sim/node/content.ts';
import { range, type Buffer, type Range } from '../../sim/node/buffer.ts';
import type { KnemCopyHandle, PointToPoint } from '../../sim/node/rank-api.ts';
import type { MachineSpec } from '../../hardware/spec.ts';
import { InputError } from '../../common/input-error.ts';
import {
  createPointToPoint,
  parsePointToPointOptions,
  type PointToPointOptions,
  type SingleCopy,
  type SingleCopyMechanisms,
} from '../../sim/kernel/p2p.ts';
import { Matcher } from '../../sim/kernel/shm/matching.ts';
import { nemesisCosts, smBtlCosts } from '../../sim/kernel/shm/costs.ts';
import type { ShmProtocol } from '../../sim/kernel/shm/packet.ts';
import { tinyMachine } from '../helpers/machines.ts';
import { runPrograms } from '../helpers/run-programs.ts';

interface Setup {
  sim: Simulation;
  node: Node;
  world: World;
  p2p: PointToPoint[];
  buf(rank: number, name: string, bytes: number, fresh: boolean): Buffer;
  run(programs: Program<void>[]): number[];
}

function setup(
  cores: number[],
  options: (world: World, rank: number) => PointToPointOptions,
  spec: MachineSpec = tinyMachine(),
): Setup {
  const sim = new Simulation({ seed: 'p2p' });
  const node = new Node(sim, spec, { keepTrace: true });
  const world = new World(node, cores);
  const p2p = cores.map((_, r) => createPointToPoint(world, r, options(world, r)));
  return {
    sim,
    node,
    world,
    p2p,
    buf(rank, name, bytes, fresh) {
      const b = node.allocate(`r${rank}.${name}`, bytes, rank, node.topo.core(cores[rank]).numa);
      if (fresh) b.content = Content.fresh(bytes, b.name);
      return b;
    },
    run: (programs) => runPrograms(sim, programs),
  };
}

const holds = (b: Buffer, source: string) => b.content.equals(Content.fresh(b.size, source));

const interesting = [
  0,
  1,
  63,
  4095,
  4096,
  4097,
  32 * 1024 + 1,
  nemesisCosts.cellDataBytes - 1,
  nemesisCosts.cellDataBytes,
  nemesisCosts.cellDataBytes + 1,
  nemesisCosts.eagerLimitBytes - 1,
  nemesisCosts.eagerLimitBytes,
  nemesisCosts.eagerLimitBytes + 1,
  3 * 65536 + 17,
];
const sizeArb = fc.oneof(
  fc.constantFrom(...interesting),
  fc.integer({ min: 0, max: 150_000 }).map((n) => 2 * n + 1),
  fc.integer({ min: 0, max: 300_000 }),
);

describe('point-to-point delivers the exact bytes (property)', () => {
  it('random sizes and tags, received in any order, over both protocols', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<ShmProtocol>('nemesis', 'sm'),
        fc.array(fc.record({ bytes: sizeArb, tag: fc.integer({ min: 0, max: 2 }), key: fc.nat() }), {
          minLength: 1,
          maxLength: 6,
        }),
        fc.boolean(),
        fc.constantFrom<number[][]>([0, 1], [0, 2]),
        (shm, messages, nonBlocking, cores) => {
          const t = setup(cores, () => ({ shm }));
          const sources = messages.map((m, i) => t.buf(0, `m${i}`, m.bytes, true));
          // The receiver takes them in its own order; each receive gets the earliest unmatched
          // message of its tag, so that is the buffer it must be sized for and end up holding.
          const order = messages.map((m, i) => ({ ...m, i })).sort((a, b) => a.key - b.key || a.i - b.i);
          const taken = new Set<number>();
          const expected = order.map(({ tag }) => {
            const i = messages.findIndex((m, k) => m.tag === tag && !taken.has(k));
            taken.add(i);
            return i;
          });
          const sinks = expected.map((i, k) => t.buf(1, `in${k}`, messages[i].bytes, false));
          t.run([
            (function* () {
              const waits = [];
              for (let i = 0; i < messages.length; i++)
                waits.push(yield* t.p2p[0].isend(1, range(sources[i]), messages[i].tag));
              for (const w of waits) yield* w();
            })(),
            (function* () {
              if (nonBlocking) {
                const waits = [];
                for (let k = 0; k < order.length; k++)
                  waits.push(yield* t.p2p[1].irecv(0, range(sinks[k]), order[k].tag));
                for (const w of waits) yield* w();
              } else {
                for (let k = 0; k < order.length; k++) yield* t.p2p[1].recv(0, range(sinks[k]), order[k].tag);
              }
            })(),
          ]);
          expected.forEach((i, k) =>
            expect(
              holds(sinks[k], `r0.m${i}`),
              `receive ${k} should hold message ${i}: ${sinks[k].content.describe()}`,
            ).toBe(true),
          );
        },
      ),
      { numRuns: 60, seed: 20240601 },
    );
  });
});

describe('matching', () => {
  for (const shm of ['nemesis', 'sm'] as const) {
    it(`${shm}: messages of one pair with different tags match by tag, same tags in order`, () => {
      const sizes = [100, 200_000, 5000, 70_000];
      const tags = [1, 2, 1, 2];
      const t = setup([0, 1], () => ({ shm }));
      const src = sizes.map((n, i) => t.buf(0, `s${i}`, n, true));
      // Received as: tag 2, tag 1, tag 2, tag 1 -> messages 1, 0, 3, 2.
      const dst = [sizes[1], sizes[0], sizes[3], sizes[2]].map((n, k) => t.buf(1, `d${k}`, n, false));
      t.run([
        (function* () {
          const waits = [];
          for (let i = 0; i < sizes.length; i++) waits.push(yield* t.p2p[0].isend(1, range(src[i]), tags[i]));
          for (const w of waits) yield* w();
        })(),
        (function* () {
          yield* t.p2p[1].recv(0, range(dst[0]), 2);
          yield* t.p2p[1].recv(0, range(dst[1]), 1);
          yield* t.p2p[1].recv(0, range(dst[2]), 2);
          yield* t.p2p[1].recv(0, range(dst[3]), 1);
        })(),
      ]);
      expect([holds(dst[0], 'r0.s1'), holds(dst[1], 'r0.s0'), holds(dst[2], 'r0.s3'), holds(dst[3], 'r0.s2')]).toEqual([
        true,
        true,
        true,
        true,
      ]);
    });
  }

  it('enters messages in sequence order even when a later one arrives first', () => {
    const m = new Matcher<{ from: number; tag: number; seq: number; name: string }>(1);
    m.arrive({ from: 0, tag: 5, seq: 1, name: 'second' });
    expect(m.unexpectedCount()).toBe(0); // held back until seq 0 is in
    const first = m.post(0, 5);
    expect(first.fired).toBe(false);
    m.arrive({ from: 0, tag: 5, seq: 0, name: 'first' });
    expect(first.value?.name).toBe('first');
    expect(m.post(0, 5).value?.name).toBe('second');
  });

  it('satisfies receives in the order they were posted', () => {
    const m = new Matcher<{ from: number; tag: number; seq: number }>(1);
    const a = m.post(0, 3);
    const b = m.post(0, 3);
    m.arrive({ from: 0, tag: 3, seq: 0 });
    expect([a.fired, b.fired]).toEqual([true, false]);
    m.arrive({ from: 0, tag: 3, seq: 1 });
    expect(b.value?.seq).toBe(1);
  });

  it('keeps the call order of a non-blocking send followed by a blocking one', () => {
    const t = setup([0, 1], () => ({}));
    const a = t.buf(0, 'a', 100_000, true);
    const b = t.buf(0, 'b', 10, true);
    const x = t.buf(1, 'x', 100_000, false);
    const y = t.buf(1, 'y', 10, false);
    t.run([
      (function* () {
        const w = yield* t.p2p[0].isend(1, range(a));
        yield* t.p2p[0].send(1, range(b));
        yield* w();
      })(),
      (function* () {
        yield* t.p2p[1].recv(0, range(x));
        yield* t.p2p[1].recv(0, range(y));
      })(),
    ]);
    expect([holds(x, 'r0.a'), holds(y, 'r0.b')]).toEqual([true, true]);
  });

  it('accepts a receive buffer larger than the message and rejects a smaller one', () => {
    const t = setup([0, 1], () => ({}));
    const a = t.buf(0, 'a', 1000, true);
    const big = t.buf(1, 'big', 4000, false);
    t.run([t.p2p[0].send(1, range(a)), t.p2p[1].recv(0, range(big))]);
    expect(big.content.slice(0, 1000)).toEqual(Content.fresh(1000, 'r0.a').pieces());

    const u = setup([0, 1], () => ({}));
    const c = u.buf(0, 'c', 1000, true);
    const small = u.buf(1, 'small', 999, false);
    expect(() => u.run([u.p2p[0].send(1, range(c)), u.p2p[1].recv(0, range(small))])).toThrow(
      /receive of 999 bytes from rank 0 .* sent 1000/,
    );
  });

  it('rejects a peer outside the communicator', () => {
    const t = setup([0, 1], () => ({}));
    const a = t.buf(0, 'a', 10, true);
    expect(() => t.run([t.p2p[0].send(2, range(a))])).toThrow(/rank 2 outside 0\.\.1/);
  });

  it('is deterministic', () => {
    const once = () => {
      const t = setup([0, 2], () => ({ shm: 'sm' }));
      const a = t.buf(0, 'a', 300_000, true);
      const b = t.buf(1, 'b', 300_000, false);
      return t.run([t.p2p[0].send(1, range(a)), t.p2p[1].recv(0, range(b))]);
    };
    expect(once()).toEqual(once());
  });
});

const FAKE_MECHANISMS = new RunState('fake mechanisms', () => ({
  regions: new Map<bigint, Range>(),
  segments: new Map<number, Buffer>(),
  next: 1,
}));

/** Minimal stand-ins for the kernel mechanisms: each moves the bytes with one copy by the caller's
 *  core and logs what it was asked, so the rendezvous protocol can be checked on its own. */
function fakeMechanisms(world: World, me: number, log: string[]): SingleCopyMechanisms {
  const node = world.node;
  const core = world.cores[me];
  const shared = world.stateOf(FAKE_MECHANISMS);
  const copy = (src: Range, dst: Range, label: string) =>
    node.copy(core, src, dst, { rank: me, label, kind: 'kernel-copy' });
  const one = (r: Range | Range[]) => (Array.isArray(r) ? r[0] : r);
  const done: KnemCopyHandle = {
    poll: () => 'success',
    *wait() {
      yield* world.sim.sleep(0);
    },
  };
  return {
    knem: {
      *createRegion(segments, opts) {
        const cookie = BigInt(shared.next++);
        shared.regions.set(cookie, one(segments));
        log.push(`r${me} knem create ${cookie} read=${opts.read} singleUse=${opts.singleUse}`);
        yield* world.sim.sleep(100);
        return cookie;
      },
      *destroyRegion(cookie) {
        shared.regions.delete(cookie);
        yield* world.sim.sleep(0);
      },
      *inlineCopy({ cookie, offset, local, direction }) {
        const region = shared.regions.get(cookie);
        if (!region) throw new Error(`no region ${cookie}`);
        shared.regions.delete(cookie); // single use
        const l = one(local);
        log.push(`r${me} knem ${direction} ${cookie}`);
        yield* copy(range(region.buf, region.offset + offset, l.bytes), l, 'fake knem');
        return done;
      },
      *regionCopy() {
        throw new Error('not used');
      },
    },
    cma: {
      *readv(target, local, remote) {
        log.push(`r${me} cma readv from r${target} ${one(remote).buf.name}`);
        yield* copy(one(remote), one(local), 'fake cma');
      },
      *writev() {
        throw new Error('not used');
      },
    },
    xpmem: {
      *make(buffer) {
        const segid = shared.next++;
        shared.segments.set(segid, buffer);
        log.push(`r${me} xpmem make ${buffer.name}`);
        yield* world.sim.sleep(100);
        return segid;
      },
      *attach(owner, segid, offset, bytes) {
        log.push(`r${me} xpmem attach r${owner} ${segid} ${offset}+${bytes}`);
        yield* world.sim.sleep(100);
        return range(shared.segments.get(segid)!, offset, bytes);
      },
      *detach() {
        log.push(`r${me} xpmem detach`);
        yield* world.sim.sleep(0);
      },
    },
    limic: {
      *txInit(data) {
        log.push(`r${me} limic tx ${data.buf.name}`);
        yield* world.sim.sleep(100);
        return { data };
      },
      *rx(descriptor, into) {
        log.push(`r${me} limic rx`);
        yield* copy((descriptor as { data: Range }).data, into, 'fake limic');
      },
    },
  };
}

describe('single-copy rendezvous for large messages', () => {
  const bytes = 100_000;

  function transfer(single: SingleCopy, shm: ShmProtocol, n = bytes, spec: MachineSpec = tinyMachine()) {
    const log: string[] = [];
    const t = setup([0, 2], (world, r) => ({ shm, single, mechanisms: fakeMechanisms(world, r, log) }), spec);
    const src = t.buf(0, 'src', n, true);
    const dst = t.buf(1, 'dst', n, false);
    t.run([t.p2p[0].send(1, range(src), 7), t.p2p[1].recv(0, range(dst), 7)]);
    expect(holds(dst, 'r0.src')).toBe(true);
    const events = t.node.trace.events;
    // Whether the payload went through shared memory (fastbox, cells, copy buffer, fragments).
    const doubleCopied = events.some((e) => e.kind === 'copy' && e.bytes > 0 && /copy-in|pack/.test(e.label));
    return { log, events, doubleCopied };
  }

  const expectedLog: Record<Exclude<SingleCopy, 'none'>, string[]> = {
    knem: ['r0 knem create 1 read=true singleUse=true', 'r1 knem read 1'],
    cma: ['r1 cma readv from r0 r0.src'],
    xpmem: ['r0 xpmem make r0.src', `r1 xpmem attach r0 1 0+${bytes}`, 'r1 xpmem detach'],
    limic: ['r0 limic tx r0.src', 'r1 limic rx'],
  };

  for (const shm of ['nemesis', 'sm'] as const) {
    for (const single of ['knem', 'cma', 'xpmem', 'limic'] as const) {
      it(`${single} over ${shm}: RTS with the descriptor, one copy by the receiver, DONE`, () => {
        const { log, events, doubleCopied } = transfer(single, shm);
        expect(log).toEqual(expectedLog[single]);
        expect(doubleCopied).toBe(false);
        const rts = events.find((e) => e.kind === 'control' && e.label === 'post rts->1')!;
        const done = events.find((e) => e.kind === 'control' && e.label === 'post done->0')!;
        const copy = events.find((e) => e.bytes === bytes && e.rank === 1)!;
        expect(rts.end).toBeLessThanOrEqual(copy.start);
        expect(copy.end).toBeLessThanOrEqual(done.start);
        expect(events.some((e) => e.kind === 'wait' && e.rank === 0 && e.label === 'done<-1')).toBe(true);
      });
    }
  }

  it('by default takes the single copy exactly where the double copy would take its rendezvous', () => {
    // Nemesis: up to its eager limit through the cells, beyond it the mechanism (MPICH2's KNEM LMT);
    // the sm BTL: beyond what its 4 KiB eager fragment holds after ob1's header (ob1's RDMA protocol
    // once the BTL offers GET).
    const limits = {
      nemesis: nemesisCosts.eagerLimitBytes,
      sm: smBtlCosts.eagerFragmentBytes - smBtlCosts.headerBytes,
    } as const;
    for (const shm of ['nemesis', 'sm'] as const) {
      const at = transfer('knem', shm, limits[shm]);
      expect(at.log).toEqual([]);
      expect(at.doubleCopied).toBe(true);
      const beyond = transfer('knem', shm, limits[shm] + 1);
      expect(beyond.log.some((l) => l.includes('knem create'))).toBe(true);
      expect(beyond.doubleCopied).toBe(false);
    }
  });

  it('with a numeric singleThreshold, keeps smaller messages on the double copy whatever their path', () => {
    const log: string[] = [];
    const t = setup([0, 2], (world, r) => ({
      single: 'knem',
      singleThreshold: 256 * 1024,
      mechanisms: fakeMechanisms(world, r, log),
    }));
    const src = t.buf(0, 'src', bytes, true); // 100,000 bytes: past Nemesis's eager limit, below 256 KiB
    const dst = t.buf(1, 'dst', bytes, false);
    t.run([t.p2p[0].send(1, range(src)), t.p2p[1].recv(0, range(dst))]);
    expect(holds(dst, 'r0.src')).toBe(true);
    expect(log).toEqual([]);
    expect(t.node.trace.events.some((e) => e.label.startsWith('lmt copy-in'))).toBe(true);
  });

  it('falls back to the double copy where the kernel lacks the mechanism', () => {
    const spec = tinyMachine();
    spec.kernel.mechanisms.knem = false;
    const { log, doubleCopied } = transfer('knem', 'sm', bytes, spec);
    expect(log).toEqual([]);
    expect(doubleCopied).toBe(true);
  });

  it('exposes a buffer to XPMEM once for repeated messages', () => {
    const log: string[] = [];
    const t = setup([0, 1], (world, r) => ({
      single: 'xpmem',
      singleThreshold: 1024,
      mechanisms: fakeMechanisms(world, r, log),
    }));
    const src = t.buf(0, 'src', 4096, true);
    const dst = t.buf(1, 'dst', 4096, false);
    t.run([
      (function* () {
        for (let i = 0; i < 3; i++) yield* t.p2p[0].send(1, range(src));
      })(),
      (function* () {
        for (let i = 0; i < 3; i++) yield* t.p2p[1].recv(0, range(dst));
      })(),
    ]);
    expect(log.filter((l) => l.includes('make'))).toEqual(['r0 xpmem make r0.src']);
    expect(log.filter((l) => l.includes('attach'))).toHaveLength(3);
  });

  it('needs the mechanism objects when a mechanism is chosen', () => {
    const sim = new Simulation();
    const world = new World(new Node(sim, tinyMachine()), [0, 1]);
    expect(() => createPointToPoint(world, 0, { single: 'cma' })).toThrow(/mechanism objects/);
  });
});

describe("point-to-point options from a run's parameters", () => {
  it('reads shm, single and singleThreshold and ignores other keys', () => {
    expect(parsePointToPointOptions({ shm: 'sm', single: 'knem', singleThreshold: 65536, window: 3 })).toEqual({
      shm: 'sm',
      single: 'knem',
      singleThreshold: 65536,
    });
    expect(parsePointToPointOptions({})).toEqual({});
  });

  it('names the field and suggests the closest value', () => {
    const where = { file: 'run.yaml', line: 4, column: 7, field: 'params' };
    const err = (() => {
      try {
        parsePointToPointOptions({ shm: 'nemsis' }, where);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).message).toBe(
      'run.yaml:4:7 (params.shm): shm must be one of nemesis, sm, got "nemsis" (did you mean nemesis?)',
    );
    expect(() => parsePointToPointOptions({ single: 'knm' })).toThrow(
      /^single: single must be one of none, knem, cma, xpmem, limic, got "knm" \(did you mean knem\?\)/,
    );
    expect(parsePointToPointOptions({ single: 'cma', singleThreshold: 'rendezvous' })).toEqual({
      single: 'cma',
      singleThreshold: 'rendezvous',
    });
    // Without a single-copy mechanism the threshold would change nothing.
    expect(() => parsePointToPointOptions({ singleThreshold: 4096 })).toThrow(
      /singleThreshold says where point-to-point switches to its single-copy mechanism, but single is 'none'/,
    );
    expect(() => parsePointToPointOptions({ singleThreshold: -1 })).toThrow(InputError);
    expect(() => parsePointToPointOptions({ singleThreshold: '16k' })).toThrow(
      /singleThreshold must be a non-negative whole number of bytes or 'rendezvous', got "16k"/,
    );
  });

  it('uses the documented defaults', () => {
    // sm's eager limit and Nemesis's differ, so a 10 KB message is eager on one, rendezvous on the other.
    expect(smBtlCosts.eagerFragmentBytes).toBeLessThan(10_000);
    expect(nemesisCosts.eagerLimitBytes).toBeGreaterThan(10_000);
    const t = setup([0, 1], () => ({}));
    const a = t.buf(0, 'a', 10_000, true);
    const b = t.buf(1, 'b', 10_000, false);
    t.run([t.p2p[0].send(1, range(a)), t.p2p[1].recv(0, range(b))]);
    const labels = t.node.trace.events.map((e) => e.label);
    expect(labels).toContain('copy-in fastbox->1'); // default: Nemesis, no single copy
    expect(labels.some((l) => l.includes('rts'))).toBe(false);
  });
});
