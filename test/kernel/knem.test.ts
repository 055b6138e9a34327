import { PAGE_DIRTY_ATOMICS_NS } from '../../sim/kernel/page-dirty.ts';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Simulation } from '../../sim/engine/simulation.ts';
import type { Program } from '../../sim/engine/program.ts';
import { Node } from '../../sim/node/node.ts';
import { World } from '../../sim/node/world.ts';
import { range, type Buffer, type Range } from '../../sim/node/buffer.ts';
import { Content } from '../../sim/node/content.ts';
import { MechanismError, type Errno } from '../../sim/node/errors.ts';
import type { MachineSpec } from '../../hardware/spec.ts';
import type { Knem, KnemCookie } from '../../sim/node/rank-api.ts';
import { createKnem, cookieContext, cookieRegion } from '../../sim/kernel/knem/index.ts';
import { runPrograms } from '../helpers/run-programs.ts';

// One package, one NUMA node, two cores, no caches: every copy reads and writes memory, so a copy of
// n bytes at efficiency e takes 80 ns (memory latency) + n / min(2e, 100 / 2) ns: the core's copy
// engine (2 B/ns) is the bottleneck, memory (100 B/ns, each byte read once and written once) is not.
const SYSCALL = 100;
const PIN = 100;
const PAGE = 4096;
const CREATE = 650;
const DESTROY = 200;
const LOOKUP = 100;
const MEM_LATENCY = 80;
/** Marking one written page dirty that this core pinned itself: its struct page line is still in
 *  this core's cache (page-dirty.ts), so two atomics alone. */
const DIRTY = PAGE_DIRTY_ATOMICS_NS;
/** Marking dirty a page the other core pinned (a region's owner, at its creation): the struct page
 *  line moves from that core first, at the memory latency on this machine without caches. */
const DIRTY_PINNED_ELSEWHERE = MEM_LATENCY + PAGE_DIRTY_ATOMICS_NS;
/** Pinning a page whose struct page no cache holds (not pinned before in the run) also misses to
 *  the owner's memory for it (sim/kernel/page-table-locks.ts): one NUMA node on the pinner's own
 *  package, no link to cross, so the memory latency alone. A page pinned again by the same core
 *  finds its struct page in that core's cache and costs PIN alone. */
const STRUCT_PAGE_MISS = MEM_LATENCY;
/** A first pin of a page: the per-page work and the struct page miss. */
const COLD_PIN = PIN + STRUCT_PAGE_MISS;
const CORE_BW = 2;
const WRITE_EFF = 0.8;
const IOAT_BW = 1;
const IOAT_SETUP = 1000;

function machine(
  over: { knem?: boolean; ioat?: boolean; lock?: 'exclusive' | 'shared'; marksDirty?: number } = {},
): MachineSpec {
  return {
    name: 'knem-test',
    description: 'one package, one NUMA node, two cores, no caches',
    origin: 'test',
    packages: [{ id: 0, model: 'test' }],
    hubs: [],
    numaNodes: [{ id: 0, attach: 'pkg0', memoryBytes: 1 << 30, bandwidth: 100, latencyNs: MEM_LATENCY, kind: 'dram' }],
    cores: [0, 1].map((id) => ({ id, package: 0, numa: 0, frequencyGHz: 2, threads: 1 })),
    caches: [],
    links: [],
    routing: { kind: 'shortest' },
    ioBuses: [],
    nics: [],
    costs: { copyBandwidth: CORE_BW, reduceBandwidth: 2 },
    kernel: {
      version: 'test',
      mechanisms: { cma: false, knem: over.knem ?? true, xpmem: false, limic: false, ioat: over.ioat ?? true },
      syscallNs: SYSCALL,
      pageBytes: PAGE,
      pinPerPageNs: PIN,
      cmaLockMode: over.lock ?? 'exclusive',
      params: {
        knemCreateNs: CREATE,
        knemDestroyNs: DESTROY,
        knemLookupNs: LOOKUP,
        knemReadEfficiency: 1,
        knemWriteEfficiency: WRITE_EFF,
        ioatBandwidth: IOAT_BW,
        ioatSetupNs: IOAT_SETUP,
        ...(over.marksDirty === undefined ? {} : { knemMarksDirty: over.marksDirty }),
      },
    },
    guessed: [],
  };
}

function setup(over: Parameters<typeof machine>[0] = {}) {
  const sim = new Simulation({ seed: 1 });
  const node = new Node(sim, machine(over), { keepTrace: true });
  const world = new World(node, [0, 1]);
  const knem = [createKnem(world, 0), createKnem(world, 1)];
  const buffer = (owner: number, name: string, bytes: number, fill = true): Buffer => {
    const b = node.allocate(`r${owner}.${name}`, bytes, owner, 0);
    if (fill) b.content = Content.fresh(bytes, b.name);
    return b;
  };
  /** Runs programs as rank processes and returns when each finished. */
  const run = (...programs: Array<Program<unknown>>): number[] => runPrograms(sim, programs, (i) => `p${i}`);
  return { sim, node, world, knem, buffer, run };
}

function* errnoOf(p: Program<unknown>): Program<Errno | 'ok'> {
  try {
    yield* p;
    return 'ok';
  } catch (err) {
    if (err instanceof MechanismError) return err.errno;
    throw err;
  }
}

describe('knem: region creation and destruction', () => {
  it('createRegion costs a syscall, the declaration and one pin per page of every segment', () => {
    const { knem, buffer, run } = setup();
    const a = buffer(0, 'a', 64 * 1024);
    // [100, 10100) spans pages 0..2 (3 pages); [20000, 20001) one page; an empty segment none.
    // None was pinned before: each page pins cold.
    const segs = [range(a, 100, 10_000), range(a, 20_000, 1), range(a, 30_000, 0)];
    let cookie: KnemCookie | undefined;
    const [end] = run(
      (function* () {
        cookie = yield* knem[0].createRegion(segs, { read: true });
      })(),
    );
    expect(end).toBe(SYSCALL + CREATE + 4 * COLD_PIN);
    expect(typeof cookie).toBe('bigint');
  });

  it('destroyRegion costs a syscall and the removal', () => {
    const { knem, buffer, run, sim } = setup();
    const a = buffer(0, 'a', PAGE);
    let took = 0;
    run(
      (function* () {
        const c = yield* knem[0].createRegion(range(a), { read: true });
        const t0 = sim.now;
        yield* knem[0].destroyRegion(c);
        took = sim.now - t0;
      })(),
    );
    expect(took).toBe(SYSCALL + DESTROY);
  });

  it('cookies name the context and the region, and are the same in every run', () => {
    const cookies = () => {
      const { knem, buffer, run } = setup();
      const a = buffer(0, 'a', PAGE);
      const b = buffer(1, 'b', PAGE);
      const out: KnemCookie[] = [];
      run(
        (function* () {
          out.push(yield* knem[1].createRegion(range(b), { read: true }));
          out.push(yield* knem[0].createRegion(range(a), { read: true }));
          out.push(yield* knem[0].createRegion(range(a), { write: true }));
        })(),
      );
      return out;
    };
    const first = cookies();
    expect(cookies()).toEqual(first);
    expect(new Set(first).size).toBe(3);
    expect(cookieContext(first[1])).toBe(cookieContext(first[2]));
    expect(cookieContext(first[0])).not.toBe(cookieContext(first[1]));
    expect(cookieRegion(first[1])).not.toBe(cookieRegion(first[2]));
  });

  it("a rank's two region creations run one after the other on its one thread, whatever the address-space lock", () => {
    for (const lock of ['exclusive', 'shared'] as const) {
      const { knem, buffer, run, node } = setup({ lock });
      const a = buffer(0, 'a', 10 * PAGE);
      const ends = run(knem[0].createRegion(range(a), { read: true }), knem[0].createRegion(range(a), { read: true }));
      // A system call holds the rank's thread from entry to return (Node.onRankThread): the first
      // pins the 10 pages cold, the second enters only then and finds the struct pages in its
      // cache, the per-page work alone. It never queues on the address-space lock behind itself.
      expect(ends[0]).toBe(SYSCALL + CREATE + 10 * COLD_PIN);
      expect(ends[1]).toBe(2 * (SYSCALL + CREATE) + 10 * COLD_PIN + 10 * PIN);
      expect(node.trace.events.filter((e) => e.kind === 'lock-wait')).toHaveLength(0);
    }
  });
});

describe('knem: inline copy timing', () => {
  it('a read of N bytes takes syscall + lookup + latency + N / bottleneck, and moves the data', () => {
    // A synchronous read copies into the reader's own mapping: it pins none of the reader's pages,
    // and the driver marks none dirty.
    const { knem, buffer, run, sim, node } = setup();
    const n = 64 * 1024;
    const src = buffer(0, 'src', n);
    const dst = buffer(1, 'dst', n, false);
    let took = 0;
    run(
      (function* () {
        const c = yield* knem[0].createRegion(range(src), { read: true });
        node.trace.reset();
        const t0 = sim.now;
        const h = yield* knem[1].inlineCopy({ cookie: c, offset: 0, local: range(dst), direction: 'read' });
        took = sim.now - t0;
        expect(h.poll()).toBe('success');
      })(),
    );
    expect(took).toBeCloseTo(SYSCALL + LOOKUP + MEM_LATENCY + n / CORE_BW, 6);
    expect(dst.content.equals(src.content)).toBe(true);
    const kinds = new Set(node.trace.events.filter((e) => e.rank === 1).map((e) => e.kind));
    expect([...kinds].sort()).toEqual(['kernel-copy', 'syscall']);
  });

  it("a write pins the writer's pages and marks the region's dirty; a synchronous read does neither to the reader's", () => {
    const steps = (direction: 'read' | 'write', marksDirty?: number, mode: 'sync' | 'thread' = 'sync') => {
      const { knem, buffer, run, node } = setup({ marksDirty });
      const n = 16 * PAGE;
      const theirs = buffer(1, 'theirs', n, direction === 'read');
      const mine = buffer(0, 'mine', n, direction === 'write');
      run(
        (function* () {
          const c = yield* knem[1].createRegion(range(theirs), { read: true, write: true });
          node.trace.reset();
          const h = yield* knem[0].inlineCopy({ cookie: c, offset: 0, local: range(mine), direction, mode });
          yield* h.wait();
        })(),
      );
      const kinds = node.trace.events.filter((e) => e.rank === 0).map((e) => e.kind);
      return { pin: kinds.includes('pin'), dirty: kinds.includes('dirty') };
    };
    expect(steps('write')).toEqual({ pin: true, dirty: true });
    expect(steps('read')).toEqual({ pin: false, dirty: false });
    // A KNEM before 0.9.4 marks nothing dirty.
    expect(steps('write', 0)).toEqual({ pin: true, dirty: false });
    expect(steps('read', 0)).toEqual({ pin: false, dirty: false });
    // A kernel thread cannot reach the reader's mapping: it pins the reader's pages and writes
    // them, and they are marked dirty where the release does.
    expect(steps('read', undefined, 'thread')).toEqual({ pin: true, dirty: true });
    expect(steps('read', 0, 'thread')).toEqual({ pin: true, dirty: false });
    // A flag is 0 or 1, and the error names the field.
    expect(() => steps('write', 2)).toThrow(/knemMarksDirty must be 0 or 1, got 2/);
    expect(() => steps('write', 0.5)).toThrow(/knemMarksDirty must be a whole number/);
  });

  it('a write pushes at the write-direction efficiency', () => {
    const { knem, buffer, run, sim } = setup();
    const n = 64 * 1024;
    const target = buffer(1, 'target', n, false);
    const mine = buffer(0, 'mine', n);
    let took = 0;
    run(
      (function* () {
        const c = yield* knem[1].createRegion(range(target), { write: true });
        const t0 = sim.now;
        yield* knem[0].inlineCopy({ cookie: c, offset: 0, local: range(mine), direction: 'write' });
        took = sim.now - t0;
      })(),
    );
    expect(took).toBeCloseTo(
      SYSCALL + LOOKUP + (n / PAGE) * (COLD_PIN + DIRTY_PINNED_ELSEWHERE) + MEM_LATENCY + n / (CORE_BW * WRITE_EFF),
      6,
    );
    expect(target.content.equals(mine.content)).toBe(true);
  });

  it('a region copy pins nothing and pays kmap per region page', () => {
    const { knem, buffer, run, sim, node } = setup();
    const n = 8 * PAGE;
    const a = buffer(0, 'a', n);
    const b = buffer(1, 'b', n, false);
    const kmap = 1; // the default table value
    let took = 0;
    run(
      (function* () {
        const from = yield* knem[0].createRegion(range(a), { read: true });
        const to = yield* knem[1].createRegion(range(b), { write: true });
        node.trace.reset();
        const t0 = sim.now;
        yield* knem[0].regionCopy({ src: from, srcOffset: 0, dst: to, dstOffset: 0, bytes: n });
        took = sim.now - t0;
      })(),
    );
    expect(took).toBeCloseTo(
      SYSCALL + 2 * LOOKUP + 16 * kmap + MEM_LATENCY + n / CORE_BW + 8 * DIRTY_PINNED_ELSEWHERE,
      6,
    );
    expect(node.trace.events.some((e) => e.kind === 'pin')).toBe(false);
    expect(b.content.equals(a.content)).toBe(true);
  });
});

describe('knem: asynchronous copies', () => {
  it('an I/OAT copy returns at submission, frees the core, and completes at the DMA rate', () => {
    const { knem, buffer, run, sim, node } = setup();
    const n = 64 * 1024;
    const m = 256 * 1024;
    const src = buffer(0, 'src', n);
    const dst = buffer(1, 'dst', n, false);
    const u1 = buffer(1, 'u1', m);
    const u2 = buffer(1, 'u2', m, false);
    let submitted = 0;
    let userCopy = 0;
    let done = 0;
    let statusAtSubmit = '';
    run(
      (function* () {
        const c = yield* knem[0].createRegion(range(src), { read: true });
        const t0 = sim.now;
        const h = yield* knem[1].inlineCopy({
          cookie: c,
          offset: 0,
          local: range(dst),
          direction: 'read',
          mode: 'ioat',
        });
        submitted = sim.now - t0;
        statusAtSubmit = h.poll();
        const t1 = sim.now;
        yield* node.copy(1, range(u1), range(u2), { rank: 1, label: 'user copy' });
        userCopy = sim.now - t1;
        yield* h.wait();
        done = sim.now - t0;
        expect(h.poll()).toBe('success');
      })(),
    );
    // The caller's local pages are pinned cold before the submission.
    const pin = (n / PAGE) * COLD_PIN;
    expect(submitted).toBe(SYSCALL + LOOKUP + pin);
    expect(statusAtSubmit).toBe('pending');
    // The user copy on the same core runs at the core's full rate: the DMA does not use it.
    expect(userCopy).toBeCloseTo(MEM_LATENCY + m / CORE_BW, 6);
    // The DMA itself: chain setup, first read latency, n at the channel's rate; then one status read.
    const dmaEnd = submitted + IOAT_SETUP + MEM_LATENCY + n / IOAT_BW;
    expect(done).toBeCloseTo(Math.max(dmaEnd, submitted + userCopy) + MEM_LATENCY, 6);
    expect(dst.content.equals(src.content)).toBe(true);
    expect(node.trace.events.filter((e) => e.rank === 1 && e.kind === 'poll').length).toBeGreaterThanOrEqual(2);
  });

  it('a kernel-thread copy shares the caller core: it and a user copy of the caller take turns', () => {
    const { knem, buffer, run, sim, node } = setup();
    const n = 256 * 1024;
    const src = buffer(0, 'src', n);
    const dst = buffer(1, 'dst', n, false);
    const u1 = buffer(1, 'u1', n);
    const u2 = buffer(1, 'u2', n, false);
    let userCopy = 0;
    run(
      (function* () {
        const c = yield* knem[0].createRegion(range(src), { read: true });
        const h = yield* knem[1].inlineCopy({
          cookie: c,
          offset: 0,
          local: range(dst),
          direction: 'read',
          mode: 'thread',
        });
        const t1 = sim.now;
        yield* node.copy(1, range(u1), range(u2), { rank: 1, label: 'user copy' });
        userCopy = sim.now - t1;
        yield* h.wait();
      })(),
    );
    // One hardware thread runs one of them at a time (Node.onRankThread): the two never overlap, and
    // the user copy takes at least what it takes alone.
    const copies = node.trace.events
      .filter((e) => e.rank === 1 && (e.kind === 'copy' || e.kind === 'kernel-copy') && e.end > e.start)
      .sort((a, b) => a.start - b.start);
    expect(copies.map((e) => e.kind).sort()).toEqual(['copy', 'kernel-copy']);
    expect(copies[1].start).toBeGreaterThanOrEqual(copies[0].end);
    expect(userCopy).toBeGreaterThanOrEqual(MEM_LATENCY + n / CORE_BW);
    expect(dst.content.equals(src.content)).toBe(true);
  });

  it('thread mode is slower than sync by the calibrated thread efficiency and the pages it dirties', () => {
    const time = (mode: 'sync' | 'thread') => {
      const { knem, buffer, run, sim } = setup();
      const n = 64 * 1024;
      const src = buffer(0, 'src', n);
      const dst = buffer(1, 'dst', n, false);
      let took = 0;
      run(
        (function* () {
          const c = yield* knem[0].createRegion(range(src), { read: true });
          const t0 = sim.now;
          const h = yield* knem[1].inlineCopy({ cookie: c, offset: 0, local: range(dst), direction: 'read', mode });
          yield* h.wait();
          took = sim.now - t0;
        })(),
      );
      return took;
    };
    const fixed = SYSCALL + LOOKUP + MEM_LATENCY;
    // A synchronous read copies into the reader's own mapping and pins nothing.
    expect(time('sync')).toBeCloseTo(fixed + 65536 / CORE_BW, 6);
    // Thread copy at 1/1.15 of the core rate, then one status read (no caches here: memory latency);
    // the kernel thread cannot write through the reader's mapping: it pins the reader's 16 pages
    // (cold) and writes them, then marks them dirty.
    expect(time('thread')).toBeCloseTo(fixed + 16 * COLD_PIN + 16 * DIRTY + (65536 / CORE_BW) * 1.15 + MEM_LATENCY, 6);
  });
});

describe('knem: errors as the driver returns them', () => {
  function outcome(
    build: (k: Knem[], bufs: { a: Buffer; b: Buffer }) => Program<unknown>,
    over: Parameters<typeof machine>[0] = {},
  ): Errno | 'ok' {
    const { knem, buffer, run } = setup(over);
    const bufs = { a: buffer(0, 'a', 4 * PAGE), b: buffer(1, 'b', 4 * PAGE, false) };
    let result: Errno | 'ok' = 'ok';
    run(
      (function* () {
        result = yield* errnoOf(build(knem, bufs));
      })(),
    );
    return result;
  }

  it('unknown and destroyed cookies: ENOENT', () => {
    expect(
      outcome(function* (k, { b }) {
        yield* k[1].inlineCopy({ cookie: 0x1234n, offset: 0, local: range(b), direction: 'read' });
      }),
    ).toBe('ENOENT');
    expect(
      outcome(function* (k, { a, b }) {
        const c = yield* k[0].createRegion(range(a), { read: true });
        yield* k[0].destroyRegion(c);
        yield* k[1].inlineCopy({ cookie: c, offset: 0, local: range(b), direction: 'read' });
      }),
    ).toBe('ENOENT');
    expect(
      outcome(function* (k) {
        yield* k[0].destroyRegion(99n);
      }),
    ).toBe('ENOENT');
  });

  it('a single-use region serves one copy, then ENOENT (destroy too)', () => {
    expect(
      outcome(function* (k, { a, b }) {
        const c = yield* k[0].createRegion(range(a), { read: true, singleUse: true });
        yield* k[1].inlineCopy({ cookie: c, offset: 0, local: range(b), direction: 'read' });
      }),
    ).toBe('ok');
    expect(
      outcome(function* (k, { a, b }) {
        const c = yield* k[0].createRegion(range(a), { read: true, singleUse: true });
        yield* k[1].inlineCopy({ cookie: c, offset: 0, local: range(b), direction: 'read' });
        yield* k[1].inlineCopy({ cookie: c, offset: 0, local: range(b), direction: 'read' });
      }),
    ).toBe('ENOENT');
    expect(
      outcome(function* (k, { a, b }) {
        const c = yield* k[0].createRegion(range(a), { read: true, singleUse: true });
        yield* k[1].inlineCopy({ cookie: c, offset: 0, local: range(b), direction: 'read' });
        yield* k[0].destroyRegion(c);
      }),
    ).toBe('ENOENT');
  });

  it('protection: reading a write-only region or writing a read-only one is EACCES', () => {
    expect(
      outcome(function* (k, { a, b }) {
        const c = yield* k[0].createRegion(range(a), { write: true });
        yield* k[1].inlineCopy({ cookie: c, offset: 0, local: range(b), direction: 'read' });
      }),
    ).toBe('EACCES');
    expect(
      outcome(function* (k, { a, b }) {
        const c = yield* k[1].createRegion(range(b), { read: true });
        yield* k[0].inlineCopy({ cookie: c, offset: 0, local: range(a), direction: 'write' });
      }),
    ).toBe('EACCES');
    expect(
      outcome(function* (k, { a, b }) {
        const src = yield* k[0].createRegion(range(a), { read: true });
        const dst = yield* k[1].createRegion(range(b), { read: true });
        yield* k[0].regionCopy({ src, srcOffset: 0, dst, dstOffset: 0, bytes: 10 });
      }),
    ).toBe('EACCES');
  });

  it('a refused copy does not consume a single-use region', () => {
    expect(
      outcome(function* (k, { a, b }) {
        const c = yield* k[0].createRegion(range(a), { read: true, singleUse: true });
        const refused = yield* errnoOf(k[1].inlineCopy({ cookie: c, offset: 1, local: range(b), direction: 'read' }));
        expect(refused).toBe('EINVAL');
        yield* k[1].inlineCopy({ cookie: c, offset: 0, local: range(b), direction: 'read' });
      }),
    ).toBe('ok');
  });

  it('offset + length past the end of the region: EINVAL', () => {
    expect(
      outcome(function* (k, { a, b }) {
        const c = yield* k[0].createRegion(range(a, 0, PAGE), { read: true });
        yield* k[1].inlineCopy({ cookie: c, offset: PAGE - 10, local: range(b, 0, 11), direction: 'read' });
      }),
    ).toBe('EINVAL');
    expect(
      outcome(function* (k, { a, b }) {
        const src = yield* k[0].createRegion(range(a), { read: true });
        const dst = yield* k[1].createRegion(range(b, 0, 100), { write: true });
        yield* k[0].regionCopy({ src, srcOffset: 0, dst, dstOffset: 50, bytes: 51 });
      }),
    ).toBe('EINVAL');
  });

  it('only the creator destroys: EPERM', () => {
    expect(
      outcome(function* (k, { a }) {
        const c = yield* k[0].createRegion(range(a), { read: true });
        yield* k[1].destroyRegion(c);
      }),
    ).toBe('EPERM');
  });

  it("local segments in another rank's memory: EFAULT", () => {
    expect(
      outcome(function* (k, { a, b }) {
        const c = yield* k[0].createRegion(range(a), { write: true });
        yield* k[1].inlineCopy({ cookie: c, offset: 0, local: range(a), direction: 'write' });
        void b;
      }),
    ).toBe('EFAULT');
  });

  it('no KNEM in the kernel, or I/OAT asked for without the engine: ENODEV', () => {
    expect(
      outcome(
        function* (k, { a }) {
          yield* k[0].createRegion(range(a), { read: true });
        },
        { knem: false },
      ),
    ).toBe('ENODEV');
    expect(
      outcome(
        function* (k, { a, b }) {
          const c = yield* k[0].createRegion(range(a), { read: true });
          yield* k[1].inlineCopy({ cookie: c, offset: 0, local: range(b), direction: 'read', mode: 'ioat' });
        },
        { ioat: false },
      ),
    ).toBe('ENODEV');
  });
});

describe('knem: region reuse', () => {
  it('k copies from one region beat k create/copy/destroy cycles by exactly (k-1)(create + destroy)', () => {
    const k = 5;
    const n = 32 * PAGE;
    const timeOf = (reuse: boolean) => {
      const { knem, buffer, run } = setup();
      const src = buffer(0, 'src', n);
      const dst = buffer(1, 'dst', n, false);
      const [end] = run(
        (function* () {
          let c = reuse ? yield* knem[0].createRegion(range(src), { read: true }) : 0n;
          for (let i = 0; i < k; i++) {
            if (!reuse) c = yield* knem[0].createRegion(range(src), { read: true });
            yield* knem[1].inlineCopy({ cookie: c, offset: 0, local: range(dst), direction: 'read' });
            if (!reuse) yield* knem[0].destroyRegion(c);
          }
          if (reuse) yield* knem[0].destroyRegion(c);
        })(),
      );
      return end;
    };
    // Both runs pin the region's pages cold once (the synchronous reads pin nothing); the repeated
    // creates of the same pages by the same core find the struct pages cached: PIN alone.
    const create = SYSCALL + CREATE + (n / PAGE) * PIN;
    const destroy = SYSCALL + DESTROY;
    const reused = timeOf(true);
    const fresh = timeOf(false);
    expect(reused).toBeLessThan(fresh);
    expect(fresh - reused).toBeCloseTo((k - 1) * (create + destroy), 6);
  });
});

// Reference model: a buffer as an array of "which byte of which source" per byte.
type Byte = string;
/** Where two byte lists first differ, or undefined: one cheap assertion on it replaces a deep
 *  comparison of thousands of elements, and still names the first byte that is wrong. */
function firstDifference(got: readonly Byte[], want: readonly Byte[]): string | undefined {
  const n = Math.max(got.length, want.length);
  for (let i = 0; i < n; i++) if (got[i] !== want[i]) return `byte ${i}: ${got[i]} instead of ${want[i]}`;
  return undefined;
}

function bytesOf(buf: Buffer): Byte[] {
  const out: Byte[] = [];
  for (const p of buf.content.pieces()) {
    for (let i = 0; i < p.length; i++)
      out.push(p.origin === null ? '?' : `${p.origin.kind === 'data' ? p.origin.source : 'x'}@${p.offset + i}`);
  }
  return out;
}

/** Disjoint segments of a buffer, in a shuffled order, from sorted cut points. */
const segmentList = (size: number) =>
  fc
    .tuple(
      fc.uniqueArray(fc.integer({ min: 0, max: size }), { minLength: 2, maxLength: 10 }),
      fc.array(fc.boolean(), { maxLength: 10 }),
      fc.nat(),
    )
    .map(([cuts, skips, seed]) => {
      const sorted = [...cuts].sort((x, y) => x - y);
      const segs: Array<[number, number]> = [];
      for (let i = 0; i + 1 < sorted.length; i++) if (!skips[i]) segs.push([sorted[i], sorted[i + 1] - sorted[i]]);
      // A deterministic shuffle: region and local lists need not follow buffer order.
      for (let i = segs.length - 1; i > 0; i--) {
        const j = (seed + i * 7) % (i + 1);
        [segs[i], segs[j]] = [segs[j], segs[i]];
      }
      return segs;
    });

describe('knem: content provenance (property)', () => {
  const SIZE = 3 * PAGE;

  it('inline copies deliver what a byte-array model of segment lists predicts', () => {
    fc.assert(
      fc.property(
        segmentList(SIZE),
        segmentList(SIZE),
        fc.constantFrom('read', 'write'),
        fc.nat(),
        fc.constantFrom('sync', 'thread', 'ioat'),
        (regionSegs, localSegs, direction, offsetSeed, mode) => {
          const { knem, buffer, run } = setup();
          const owner = buffer(0, 'region', SIZE);
          const mine = buffer(1, 'local', SIZE);
          const regionLen = regionSegs.reduce((s, [, b]) => s + b, 0);
          // Trim the local list so it fits in the region from some offset.
          const local: Array<[number, number]> = [];
          let localLen = 0;
          for (const [o, b] of localSegs) {
            const take = Math.min(b, regionLen - localLen);
            if (take <= 0) break;
            local.push([o, take]);
            localLen += take;
          }
          const offset = regionLen - localLen === 0 ? 0 : offsetSeed % (regionLen - localLen + 1);
          const regionFlat = regionSegs.flatMap(([o, b]) => Array.from({ length: b }, (_, i) => o + i));
          const localFlat = local.flatMap(([o, b]) => Array.from({ length: b }, (_, i) => o + i));
          const expectOwner = bytesOf(owner);
          const expectMine = bytesOf(mine);
          localFlat.forEach((pos, i) => {
            const rpos = regionFlat[offset + i];
            if (direction === 'read') expectMine[pos] = expectOwner[rpos];
            else expectOwner[rpos] = expectMine[pos];
          });
          run(
            (function* () {
              const c = yield* knem[0].createRegion(
                regionSegs.map(([o, b]) => range(owner, o, b)),
                { read: true, write: true },
              );
              const h = yield* knem[1].inlineCopy({
                cookie: c,
                offset,
                local: local.map(([o, b]): Range => range(mine, o, b)),
                direction,
                mode,
              });
              yield* h.wait();
            })(),
          );
          expect(firstDifference(bytesOf(owner), expectOwner)).toBeUndefined();
          expect(firstDifference(bytesOf(mine), expectMine)).toBeUndefined();
        },
      ),
      { numRuns: 150 },
    );
  });

  it('region copies deliver what the byte-array model predicts', () => {
    fc.assert(
      fc.property(segmentList(SIZE), segmentList(SIZE), fc.nat(), fc.nat(), fc.nat(), (srcSegs, dstSegs, a, b, c) => {
        const { knem, buffer, run } = setup();
        const s = buffer(0, 'src', SIZE);
        const d = buffer(1, 'dst', SIZE);
        const srcFlat = srcSegs.flatMap(([o, n]) => Array.from({ length: n }, (_, i) => o + i));
        const dstFlat = dstSegs.flatMap(([o, n]) => Array.from({ length: n }, (_, i) => o + i));
        const bytes =
          Math.min(srcFlat.length, dstFlat.length) === 0 ? 0 : a % (Math.min(srcFlat.length, dstFlat.length) + 1);
        const srcOffset = b % (srcFlat.length - bytes + 1);
        const dstOffset = c % (dstFlat.length - bytes + 1);
        const expectS = bytesOf(s);
        const expectD = bytesOf(d);
        for (let i = 0; i < bytes; i++) expectD[dstFlat[dstOffset + i]] = expectS[srcFlat[srcOffset + i]];
        run(
          (function* () {
            const src = yield* knem[0].createRegion(
              srcSegs.map(([o, n]) => range(s, o, n)),
              { read: true },
            );
            const dst = yield* knem[1].createRegion(
              dstSegs.map(([o, n]) => range(d, o, n)),
              { write: true },
            );
            // Rank 1 copies from rank 0's region into its own declared region: nothing is pinned again.
            yield* knem[1].regionCopy({ src, srcOffset, dst, dstOffset, bytes });
          })(),
        );
        expect(firstDifference(bytesOf(d), expectD)).toBeUndefined();
        expect(firstDifference(bytesOf(s), expectS)).toBeUndefined();
      }),
      { numRuns: 150 },
    );
  });
});
