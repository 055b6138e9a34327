// Properties of how fast one core copies (docs/model.md, "How a core streams" and "How a copy
// stores"): over random presets, sizes, placements and store kinds, never against typed-in times.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Simulation } from '../../sim/engine/simulation.ts';
import { Node } from '../../sim/node/node.ts';
import { range, type Buffer } from '../../sim/node/buffer.ts';
import { Content } from '../../sim/node/content.ts';
import { loadPreset, presetNames } from '../../hardware/presets.ts';
import type { MachineSpec } from '../../hardware/spec.ts';
import { nonTemporalThreshold, storeKind, type CopyRoutine } from '../../sim/node/store-kind.ts';
import { Topology } from '../../sim/node/topology.ts';
import { untrainedShare } from '../../sim/node/miss-queues.ts';

const KiB = 1024;
const MiB = 1024 * KiB;
const specs = new Map(presetNames().map((name) => [name, loadPreset(name)]));

interface Case {
  machine: string;
  bytes: number;
  /** Index into the machine's cores of the copying core, and of the cores whose memory holds each buffer. */
  core: number;
  srcCore: number;
  dstCore: number;
  routine: CopyRoutine;
}

const arbCase: fc.Arbitrary<Case> = fc.record({
  machine: fc.constantFrom(...specs.keys()),
  bytes: fc.integer({ min: 1, max: 4 * MiB }),
  core: fc.nat(),
  srcCore: fc.nat(),
  dstCore: fc.nat(),
  routine: fc.constantFrom<CopyRoutine>('memcpy', 'kernel'),
});

function pick(spec: MachineSpec, i: number) {
  return spec.cores[i % spec.cores.length];
}

/** Runs `warmups` untimed copies first (each warming what it touches), then the timed one. */
function copyTime(c: Case, warmups: number): { ns: number; node: Node; dst: Buffer } {
  const spec = specs.get(c.machine)!;
  const sim = new Simulation({ seed: 'copy-speed' });
  const node = new Node(sim, spec);
  const core = pick(spec, c.core).id;
  const src = node.allocate('src', c.bytes, 0, pick(spec, c.srcCore).numa);
  src.content = Content.fresh(c.bytes, 'src');
  const dst = node.allocate('dst', c.bytes, 0, pick(spec, c.dstCore).numa);
  let ns = 0;
  sim.spawn(
    'copy',
    (function* () {
      for (let i = 0; i < warmups; i++)
        yield* node.copy(core, range(src), range(dst), { rank: 0, label: 'warm-up', routine: c.routine });
      const start = sim.now;
      yield* node.copy(core, range(src), range(dst), { rank: 0, label: 'timed', routine: c.routine });
      ns = sim.now - start;
    })(),
  );
  sim.run();
  return { ns, node, dst };
}

/** `cores` each copy `bytes` from and to NUMA node 0 at once, one buffer pair each; run to the end. */
function copiesAtOnce(spec: MachineSpec, cores: readonly { id: number }[], bytes: number, seed: string) {
  const sim = new Simulation({ seed });
  const node = new Node(sim, spec);
  for (const [i, core] of cores.entries()) {
    const src = node.allocate(`src${i}`, bytes, i, 0);
    src.content = Content.fresh(bytes, `src${i}`);
    const dst = node.allocate(`dst${i}`, bytes, i, 0);
    sim.spawn(
      `copy${i}`,
      (function* () {
        yield* node.copy(core.id, range(src), range(dst), { rank: i, label: 'copy' });
      })(),
    );
  }
  sim.run();
  return { sim, node };
}

describe('how fast one core copies', () => {
  it('a warm copy is never slower than a cold one', () => {
    fc.assert(
      fc.property(arbCase, (c) => {
        const cold = copyTime(c, 0).ns;
        const warm = copyTime(c, 1).ns;
        expect(warm).toBeLessThanOrEqual(cold * (1 + 1e-9));
      }),
      { numRuns: 60 },
    );
  });

  it('copies from a cache the data sits in run faster than from memory', () => {
    // 64 KiB fits every preset's L2: the second copy reads and writes lines already there.
    for (const machine of specs.keys()) {
      const c: Case = { machine, bytes: 64 * KiB, core: 0, srcCore: 0, dstCore: 0, routine: 'memcpy' };
      expect(copyTime(c, 1).ns).toBeLessThan(copyTime(c, 0).ns);
    }
  });

  it('a trained prefetcher lets one core stream from memory faster than its L1 fill buffers alone allow', () => {
    for (const [machine, spec] of specs) {
      const { missConcurrency, streamConcurrency } = spec.costs;
      if (streamConcurrency === undefined || missConcurrency === undefined) continue;
      const numa = spec.numaNodes[spec.cores[0].numa];
      // Each line copied waits twice for memory (the source, the destination's ownership): the fill
      // buffers alone would allow M x L / (2 x latency).
      const l1Bound = (missConcurrency * (spec.costs.lineBytes ?? 64)) / (2 * numa.latencyNs);
      const c: Case = { machine, bytes: 64 * MiB, core: 0, srcCore: 0, dstCore: 0, routine: 'kernel' };
      expect(c.bytes / copyTime(c, 0).ns).toBeGreaterThan(l1Bound * 1.01);
    }
  });

  it('the prefetcher trains on the first lines of every 4 KiB region, so short streams gain least', () => {
    expect(untrainedShare(64, 64)).toBe(1);
    expect(untrainedShare(4 * KiB, 64)).toBeCloseTo(2 / 64, 12);
    expect(untrainedShare(64 * KiB, 64)).toBeCloseTo(2 / 64, 12);
    expect(untrainedShare(256, 64)).toBe(0.5);
  });
});

describe('how a copy stores', () => {
  /** Bytes the destination's memory controller carried for one copy from a warm source. */
  function destinationMemoryBytes(
    machine: string | MachineSpec,
    routine: CopyRoutine,
    bytes: number,
    cores: [number, number],
  ) {
    const spec = typeof machine === 'string' ? specs.get(machine)! : machine;
    const sim = new Simulation({ seed: 'stores' });
    const node = new Node(sim, spec);
    const [core, dstCore] = cores.map((i) => pick(spec, i));
    // Source in a NUMA node other than the destination's when the machine has two, and warm.
    const srcNuma = spec.numaNodes.length > 1 && dstCore.numa === 0 ? 1 : 0;
    const src = node.allocate('src', bytes, 0, srcNuma);
    src.content = Content.fresh(bytes, 'src');
    const dst = node.allocate('dst', bytes, 0, dstCore.numa);
    const mem = node.memoryResource(dstCore.numa);
    const lanes = node.memoryWriteLanes(dstCore.numa);
    let before = 0;
    sim.spawn(
      'copy',
      (function* () {
        before = mem.bytesCarried + (lanes?.bytesCarried ?? 0);
        yield* node.copy(core.id, range(src), range(dst), { rank: 0, label: 'copy', routine });
      })(),
    );
    sim.run();
    const sameNode = srcNuma === dstCore.numa;
    const after = mem.bytesCarried + (lanes?.bytesCarried ?? 0);
    // The controller's load counts a written byte at its writeCost (1 on write lanes of their own):
    // back to bytes.
    const writeCost = spec.numaNodes[dstCore.numa].writeCost ?? 1;
    return { carried: (after - before - (sameNode ? bytes : 0)) / writeCost, spec };
  }

  it('a non-temporal or full-line store never reads the destination; an ordinary store reads it once', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...specs.keys()),
        fc.integer({ min: 64 * KiB, max: 32 * MiB }),
        fc.nat(),
        fc.nat(),
        (machine, bytes, a, b) => {
          const spec = specs.get(machine)!;
          const core = pick(spec, a).id;
          for (const routine of ['memcpy', 'kernel'] as const) {
            const { carried } = destinationMemoryBytes(machine, routine, bytes, [a, b]);
            const kind = storeKind(spec, routine, bytes, nonTemporalThreshold(spec, new Topology(spec), core));
            // Every byte written reaches memory (nothing stays in cache), and nothing is read.
            if (kind === 'non-temporal') expect(carried).toBeCloseTo(bytes, 0);
            // Writes alone never exceed the bytes written.
            if (kind === 'full-line') expect(carried).toBeLessThanOrEqual(bytes * (1 + 1e-9));
          }
          // The same kernel copy with ordinary stores and with full-line stores: the only difference
          // in the destination's memory traffic is the read for ownership, the destination's bytes
          // read once.
          const kernelStores = (kind: 'rfo' | 'full-line') =>
            destinationMemoryBytes({ ...spec, costs: { ...spec.costs, kernelStores: kind } }, 'kernel', bytes, [a, b]);
          const writeCost = spec.numaNodes[pick(spec, b).numa].writeCost ?? 1;
          const readForOwnership = (kernelStores('rfo').carried - kernelStores('full-line').carried) * writeCost;
          expect(readForOwnership / bytes).toBeCloseTo(1, 6);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('memcpy above its non-temporal threshold sends every byte to memory and leaves nothing in cache', () => {
    const spec = specs.get('westmere')!;
    const bytes = 16 * MiB; // above half of a 12 MiB L3's six-thread share
    const { carried } = destinationMemoryBytes('westmere', 'memcpy', bytes, [0, 0]);
    expect(carried).toBeCloseTo(bytes, 0);
    const c: Case = { machine: 'westmere', bytes, core: 0, srcCore: 0, dstCore: 0, routine: 'memcpy' };
    const { node, dst } = copyTime(c, 0);
    for (const cache of spec.caches) expect(node.cache(cache.id).residentBytes(dst.id, 0, bytes)).toBe(0);
  });

  it('dirty lines evicted by a later copy cost their write-back to memory', () => {
    // Write 768 KiB into the L3 (kept dirty; below memcpy's 1 MiB non-temporal threshold on
    // Westmere), then stream 64 MiB through it: the second copy carries the first one's write-back
    // too, on top of what it moves itself.
    const spec = specs.get('westmere')!;
    const run = (firstBytes: number) => {
      const sim = new Simulation({ seed: 'wb' });
      const node = new Node(sim, spec);
      const a = node.allocate('a', 4 * MiB, 0, 0);
      a.content = Content.fresh(4 * MiB, 'a');
      const b = node.allocate('b', 4 * MiB, 0, 0);
      const big = node.allocate('big', 64 * MiB, 0, 0);
      big.content = Content.fresh(64 * MiB, 'big');
      const big2 = node.allocate('big2', 64 * MiB, 0, 0);
      let carried = 0;
      sim.spawn(
        'copies',
        (function* () {
          if (firstBytes > 0)
            yield* node.copy(0, range(a, 0, firstBytes), range(b, 0, firstBytes), { rank: 0, label: 'dirty' });
          const before = node.memoryResource(0).bytesCarried;
          yield* node.copy(0, range(big), range(big2), { rank: 0, label: 'stream', routine: 'kernel' });
          carried = node.memoryResource(0).bytesCarried - before;
        })(),
      );
      sim.run();
      return carried;
    };
    const writeCost = spec.numaNodes[0].writeCost ?? 1;
    const clean = run(0) / writeCost;
    const afterDirty = run(768 * KiB) / writeCost;
    expect(afterDirty - clean).toBeGreaterThan(760 * KiB);
    expect(afterDirty - clean).toBeLessThan(776 * KiB);
  });
});

describe('memory controllers under many streams', () => {
  // The presets, and Zoot with its FB-DIMM lanes apart (docs/model.md): reads and writes each have
  // a peak of their own there.
  const ZOOT_LANES = 'zoot, FB-DIMM lanes apart';
  const zoot = specs.get('zoot')!;
  const streamSpecs = new Map([
    ...specs,
    [ZOOT_LANES, { ...zoot, numaNodes: zoot.numaNodes.map((n) => ({ ...n, bandwidth: 10.4, writeBandwidth: 5.2 })) }],
  ]);

  /** Bytes/ns the controller of NUMA node 0 carried (its load, writes at their cost) while `k`
   *  cores each copied `bytes` from and to node 0 at once, over the time the last one took.
   *  `local`: only node 0's own cores, so every stream has the same route to the controller. */
  function delivered(
    machine: string,
    k: number,
    bytes: number,
    local = false,
  ): { load: number; peak: number; writes: { load: number; peak: number } | undefined } {
    const spec = streamSpecs.get(machine)!;
    const cores = (local ? spec.cores.filter((c) => c.numa === 0) : spec.cores).slice(0, k);
    const { sim, node } = copiesAtOnce(spec, cores, bytes, 'streams');
    const lanes = node.memoryWriteLanes(0);
    return {
      load: node.memoryResource(0).bytesCarried / sim.now,
      peak: spec.numaNodes[0].bandwidth,
      writes: lanes && { load: lanes.bytesCarried / sim.now, peak: spec.numaNodes[0].writeBandwidth! },
    };
  }

  it('more streams never raise a controller above its peak, writes counted at their cost', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...streamSpecs.keys()),
        fc.integer({ min: 1, max: 16 }),
        fc.integer({ min: 256 * KiB, max: 8 * MiB }),
        (machine, k, bytes) => {
          const { load, peak, writes } = delivered(machine, k, bytes);
          expect(load).toBeLessThanOrEqual(peak * (1 + 1e-9));
          // Write lanes of their own (FB-DIMM) have a peak of their own.
          expect(writes === undefined).toBe(machine !== ZOOT_LANES);
          if (writes) expect(writes.load).toBeLessThanOrEqual(writes.peak * (1 + 1e-9));
        },
      ),
      // The lanes in every run of the property: sixteen streams of memcpy's non-temporal stores,
      // whose writes all go to memory and saturate the write lanes.
      { numRuns: 40, examples: [[ZOOT_LANES, 16, 8 * MiB]] },
    );
  });

  it('a written byte takes more of a DDR controller than a read one (bus turnarounds)', () => {
    // 14 Broadwell cores at once, each a non-temporal memcpy of 8 MiB within NUMA node 0 (read n,
    // write n): bound by the controller, so writes costing 1.32 of a read make it slower than the
    // same machine with free turnarounds would be.
    const time = (writeCost: number) => {
      const base = specs.get('broadwell')!;
      const spec = { ...base, numaNodes: base.numaNodes.map((n) => ({ ...n, writeCost })) };
      return copiesAtOnce(spec, spec.cores.slice(0, 14), 8 * MiB, 'turnarounds').sim.now;
    };
    expect(time(1.32) / time(1)).toBeGreaterThan(1.1);
  });

  describe('memory whose writes have lanes of their own (FB-DIMM)', () => {
    /** `k` of Zoot's cores at once, each a non-temporal memcpy of 16 MiB within its memory (above
     *  memcpy's 1 MiB threshold there: it reads the source and writes the destination once each). */
    function copies(writeBandwidth: number | undefined, k: number) {
      const base = specs.get('zoot')!;
      const spec: MachineSpec = { ...base, numaNodes: base.numaNodes.map((n) => ({ ...n, writeBandwidth })) };
      const bytes = 16 * MiB;
      const { sim, node } = copiesAtOnce(spec, spec.cores.slice(0, k), bytes, 'lanes');
      return { ns: sim.now, bytes: bytes * k, reads: node.memoryResource(0), writes: node.memoryWriteLanes(0) };
    }

    it('a written byte loads the write lanes alone, a read byte the read lanes alone', () => {
      // FB-DIMM's write lanes carry half what its read lanes do.
      const { bytes, reads, writes } = copies(specs.get('zoot')!.numaNodes[0].bandwidth / 2, 1);
      expect(writes).toBeDefined();
      expect(reads.bytesCarried).toBeCloseTo(bytes, -3);
      expect(writes!.bytesCarried).toBeCloseTo(bytes, -3);
    });

    it('reads and writes proceed at once: lanes as wide as the reads move a copy twice as fast as one bus', () => {
      // Sixteen streams ask far more than the memory gives, so the memory bounds both runs: one bus
      // of the read lanes' bandwidth carries the reads and the writes in turn, separate lanes at once.
      const read = specs.get('zoot')!.numaNodes[0].bandwidth;
      const oneBus = copies(undefined, 16);
      const twoLanes = copies(read, 16);
      expect(oneBus.bytes / oneBus.ns).toBeCloseTo(read / 2, 2);
      expect(twoLanes.bytes / twoLanes.ns).toBeCloseTo(read, 2);
    });
  });

  it("a controller's delivered bandwidth plateaus: another stream never lowers it", () => {
    // Published STREAM scaling with one thread per core saturates and stays flat (docs/model.md,
    // "Memory controllers under many streams"); the model has no mechanism that would lower it.
    fc.assert(
      fc.property(
        fc.constantFrom(...specs.keys()),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 256 * KiB, max: 4 * MiB }),
        (machine, n, bytes) => {
          const local = specs.get(machine)!.cores.filter((c) => c.numa === 0).length;
          const k = 1 + ((n - 1) % Math.max(1, local - 1));
          const fewer = delivered(machine, k, bytes, true).load;
          const more = delivered(machine, k + 1, bytes, true).load;
          expect(more).toBeGreaterThanOrEqual(fewer * (1 - 1e-9));
        },
      ),
      { numRuns: 30 },
    );
  });
});

describe('one core against the real machine', () => {
  // measured.oneCoreCopy is bytes copied per ns (a STREAM Copy figure counts the read and the
  // written bytes, twice that); every preset citing one gets its own check.
  const cited = [...specs].filter(([, spec]) => spec.measured?.oneCoreCopy !== undefined);

  it('at least one preset cites a measured one-core copy', () => {
    expect(cited.length).toBeGreaterThan(0);
  });

  // Presets whose one-core copy the model misses by more than 20 %, in which direction, and what is
  // known of why (docs/model.md, "How a core streams"). Each is checked to miss that way: once the
  // model comes within 20 %, the check fails and the entry goes.
  const knownMisses: Record<string, { model: 'faster' | 'slower'; why: string }> = {
    dancer: {
      model: 'faster',
      why: 'about twice the measured rate: the preset lets the L2 streamer keep 16 lines in flight at the idle 65 ns memory latency; even the 10 L1 fill buffers alone at that latency copy 4.9 GB/s with non-temporal stores. A streaming core sees a longer latency than the idle one, which the model does not have',
    },
    saturn: {
      model: 'faster',
      why: 'about twice the measured rate, as for dancer (the same Nehalem core and superqueue)',
    },
    barcelona: {
      model: 'faster',
      why: 'about twice the measured rate: the 8 L1 miss buffers at the preset’s idle latency already copy 3 GB/s; the measured 1.34 GB/s implies each line held about twice that long',
    },
    'epyc-genoa': {
      model: 'slower',
      why: 'about half the measured rate: the model’s non-temporal stores each hold one of the 24 L1 miss buffers for the memory latency, which caps one core near 12.4 GB/s whatever the L2 prefetcher keeps in flight; how Zen 4 drains write-combined stores is not modelled',
    },
  };

  for (const [machine, spec] of cited) {
    const measured = spec.measured!.oneCoreCopy!;
    const ratio = () => {
      const c: Case = { machine, bytes: 64 * MiB, core: 0, srcCore: 0, dstCore: 0, routine: 'memcpy' };
      return c.bytes / copyTime(c, 0).ns / measured;
    };
    const miss = knownMisses[machine];
    if (miss === undefined)
      it(`${machine}: one core's cold 64 MiB memcpy lies within 20 % of the cited ${measured} GB/s`, () => {
        expect(Math.abs(ratio() - 1)).toBeLessThan(0.2);
      });
    else
      it(`${machine}: one core's cold 64 MiB memcpy is more than 20 % ${miss.model} than the cited ${measured} GB/s (${miss.why})`, () => {
        if (miss.model === 'faster') expect(ratio()).toBeGreaterThan(1.2);
        else expect(ratio()).toBeLessThan(0.8);
      });
  }

  it('every known miss belongs to a preset that cites a measurement', () => {
    for (const machine of Object.keys(knownMisses))
      expect(specs.get(machine)?.measured?.oneCoreCopy, machine).toBeDefined();
  });
});
