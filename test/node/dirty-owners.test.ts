// Reading lines another group of cores holds Modified (docs/model.md, "Lines another socket holds
// Modified"): the owner's cache answers, not memory; a clean copy elsewhere changes nothing.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Simulation } from '../../sim/engine/simulation.ts';
import { Node } from '../../sim/node/node.ts';
import { range } from '../../sim/node/buffer.ts';
import { Content } from '../../sim/node/content.ts';
import { ownerCandidatesByCore } from '../../sim/node/dirty-owners.ts';
import { keptDirtyIds, siblingCachesByCore } from '../../sim/node/sibling-caches.ts';
import { outermostCaches, Topology } from '../../sim/node/topology.ts';
import { loadPreset, presetNames } from '../../hardware/presets.ts';
import type { CacheSpec, MachineSpec } from '../../hardware/spec.ts';

const KiB = 1024;
const specs = new Map(presetNames().map((name) => [name, loadPreset(name)]));

function owners(spec: MachineSpec): Map<number, CacheSpec[]> {
  return ownerCandidatesByCore(spec, outermostCaches(spec.caches), keptDirtyIds(siblingCachesByCore(spec)));
}

/**
 * Core `first` writes (or reads) a segment homed at the reader's NUMA node, then core `reader`
 * copies it out: the reader's copy time and the bytes every memory controller carried during it.
 */
function readAfter(
  spec: MachineSpec,
  first: number,
  reader: number,
  bytes: number,
  access: 'write' | 'read' | 'none',
  routine: 'memcpy' | 'kernel' = 'memcpy',
) {
  const sim = new Simulation({ seed: 'dirty-owners' });
  const node = new Node(sim, spec);
  const readerNuma = spec.cores.find((c) => c.id === reader)!.numa;
  const src = node.allocate('input', bytes, 0, spec.cores.find((c) => c.id === first)!.numa);
  src.content = Content.fresh(bytes, 'input');
  const segment = node.allocate('segment', bytes, 1, readerNuma);
  segment.content = Content.fresh(bytes, 'segment');
  const out = node.allocate('out', bytes, 2, readerNuma);
  const carried = () => spec.numaNodes.reduce((sum, n) => sum + node.memoryResource(n.id).bytesCarried, 0);
  let ns = 0;
  let fromMemory = 0;
  sim.spawn(
    'ranks',
    (function* () {
      if (access === 'write') yield* node.copy(first, range(src), range(segment), { rank: 1, label: 'write', routine });
      if (access === 'read') yield* node.copy(first, range(segment), range(src), { rank: 1, label: 'read first' });
      const start = sim.now;
      const before = carried();
      yield* node.copy(reader, range(segment), range(out), { rank: 2, label: 'read' });
      ns = sim.now - start;
      fromMemory = carried() - before;
    })(),
  );
  sim.run();
  return { ns, fromMemory };
}

/**
 * A reader and a core of one of its owner candidates, from two draws. The candidate is not on the
 * socket of the reader's own memory, where the segment is homed: a last-level cache there is the
 * home socket's, which answers before this step does, clean lines included (docs/model.md).
 */
function pair(spec: MachineSpec, a: number, b: number): { reader: number; writer: number; owner: CacheSpec } {
  const topo = new Topology(spec);
  const table = owners(spec);
  const away = (core: number) =>
    table.get(core)!.filter((c) => topo.coreVertex(c.cores[0]) !== topo.numa(topo.core(core).numa).attach);
  const readers = [...table.keys()].filter((core) => away(core).length > 0);
  const reader = readers[a % readers.length];
  const candidates = away(reader);
  const owner = candidates[b % candidates.length];
  return { reader, writer: owner.cores[0], owner };
}

/** The presets where this step can answer some read (elsewhere the home socket's caches do). */
const withOwners = [...specs.keys()].filter((name) => {
  const spec = specs.get(name)!;
  const topo = new Topology(spec);
  return [...owners(spec)].some(([core, list]) =>
    list.some((c) => topo.coreVertex(c.cores[0]) !== topo.numa(topo.core(core).numa).attach),
  );
});

describe('lines another group of cores holds Modified', () => {
  it('may come from any cache that shares no core with the reader’s caches, never a memory-side one', () => {
    for (const [name, spec] of specs) {
      for (const [core, candidates] of owners(spec)) {
        const group = new Set(
          spec.caches.filter((c) => !c.memorySide && c.cores.includes(core)).flatMap((c) => c.cores),
        );
        for (const c of candidates) {
          expect(c.memorySide, name).toBeFalsy();
          for (const other of c.cores) expect(group.has(other), `${name}: core ${core}, cache ${c.id}`).toBe(false);
        }
      }
    }
    // Every machine of more than one socket has some.
    for (const [name, spec] of specs) if (spec.packages.length > 1) expect(withOwners, name).toContain(name);
    // A machine whose memory sits behind a hub with no cache (a front-side-bus SMP) depends on them.
    expect(withOwners).toContain('zoot');
  });

  it('are read from their owner, not from memory', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...withOwners),
        fc.nat(),
        fc.nat(),
        fc.integer({ min: 1, max: 32 }),
        (machine, a, b, kib) => {
          const spec = specs.get(machine)!;
          const { reader, writer, owner } = pair(spec, a, b);
          const bytes = Math.min(kib * 4 * KiB, Math.floor(owner.sizeBytes / 8 / 4096) * 4096);
          fc.pre(bytes >= 4 * KiB);
          const written = readAfter(spec, writer, reader, bytes, 'write');
          const cold = readAfter(spec, writer, reader, bytes, 'none');
          // The segment's bytes no longer cross a memory controller; the destination's still do.
          expect(written.fromMemory).toBeLessThanOrEqual(cold.fromMemory - bytes * (1 - 1e-9));
        },
      ),
      { numRuns: 40 },
    );
  });

  it('a socket answers with every cache holding the range dirty (a core’s L2 and the victim L3 behind it)', () => {
    // 1 MiB overflows a K10 or Zen 4 L2: the written range ends up split between the writer's L2
    // and its socket's victim L3, and both answer. (The kernel's copy: glibc's memcpy of 1 MiB
    // stores around the caches there, leaving nothing dirty.)
    for (const machine of [...specs.keys()].filter((name) => specs.get(name)!.caches.some((c) => c.victim))) {
      const spec = specs.get(machine)!;
      const topo = new Topology(spec);
      const reader = spec.cores[0].id;
      const writer = spec.cores.find((c) => topo.coreVertex(c.id) !== topo.coreVertex(reader))!.id;
      const written = readAfter(spec, writer, reader, 1024 * KiB, 'write', 'kernel');
      const cold = readAfter(spec, writer, reader, 1024 * KiB, 'none', 'kernel');
      expect(written.fromMemory, machine).toBeLessThanOrEqual(cold.fromMemory - 1024 * KiB * (1 - 1e-9));
    }
  });

  it('between two L2 pairs of one front-side-bus package, the line crosses the bus, as between packages', () => {
    const spec = specs.get('zoot')!;
    const [reader, samePackage, otherPackage] = [0, 2, 4];
    const near = readAfter(spec, samePackage, reader, 64 * KiB, 'write');
    const far = readAfter(spec, otherPackage, reader, 64 * KiB, 'write');
    expect(near.ns).toBeCloseTo(far.ns, 6);
  });

  it('a clean copy in another group’s cache still comes from its home (only a Modified line answers)', () => {
    // A memory-side cache (KNL's MCDRAM) keeps what the first read brought in, so the second read
    // costs memory less there whoever read first: those machines are left out.
    for (const machine of withOwners.filter((name) => !specs.get(name)!.caches.some((c) => c.memorySide))) {
      const spec = specs.get(machine)!;
      const { reader, writer } = pair(spec, 0, 0);
      const cold = readAfter(spec, writer, reader, 16 * KiB, 'none');
      const afterCleanRead = readAfter(spec, writer, reader, 16 * KiB, 'read');
      expect(afterCleanRead.fromMemory, machine).toBe(cold.fromMemory);
      expect(afterCleanRead.ns, machine).toBeCloseTo(cold.ns, 6);
    }
  });
});
