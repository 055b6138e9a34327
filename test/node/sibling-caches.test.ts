// Reading what another core of the same socket holds in its private cache behind a victim L3
// (docs/model.md, "Sibling caches behind a victim L3"): properties over presets, sizes and cores.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Simulation } from '../../sim/engine/simulation.ts';
import { Node } from '../../sim/node/node.ts';
import { range } from '../../sim/node/buffer.ts';
import { Content } from '../../sim/node/content.ts';
import { siblingCachesByCore } from '../../sim/node/sibling-caches.ts';
import { loadPreset, presetNames } from '../../hardware/presets.ts';
import type { MachineSpec } from '../../hardware/spec.ts';

const KiB = 1024;
const specs = new Map(presetNames().map((name) => [name, loadPreset(name)]));
const withVictim = [...specs.keys()].filter((name) => specs.get(name)!.caches.some((c) => c.victim));

/** A writer on core `writer` fills `bytes` of a buffer (or not), then core `reader` copies it out:
 *  the reader's copy time and the bytes its copy took from memory. */
function readAfterWrite(
  spec: MachineSpec,
  writer: number,
  reader: number,
  bytes: number,
  written: boolean,
  firstReads = false,
) {
  const sim = new Simulation({ seed: 'sibling-caches' });
  const node = new Node(sim, spec, { keepTrace: true });
  const home = spec.cores.find((c) => c.id === writer)!.numa;
  const src = node.allocate('input', bytes, 0, home);
  src.content = Content.fresh(bytes, 'input');
  const shared = node.allocate('segment', bytes, 1, home);
  const out = node.allocate('out', bytes, 2, spec.cores.find((c) => c.id === reader)!.numa);
  let ns = 0;
  sim.spawn(
    'ranks',
    (function* () {
      if (written) yield* node.copy(writer, range(src), range(shared), { rank: 1, label: 'write', routine: 'kernel' });
      if (firstReads) yield* node.copy(writer, range(shared), range(src), { rank: 1, label: 'read first' });
      const start = sim.now;
      yield* node.copy(reader, range(shared), range(out), { rank: 2, label: 'read', routine: 'kernel' });
      ns = sim.now - start;
    })(),
  );
  sim.run();
  const read = node.trace.events.find((e) => e.label === 'read')!;
  return { ns, resource: read.resource };
}

/** Two distinct cores of one socket behind a victim cache, from two draws. */
function sameSocket(spec: MachineSpec, a: number, b: number): [number, number] {
  const victim = spec.caches.find((c) => c.victim)!;
  const i = a % victim.cores.length;
  const j = (i + 1 + (b % (victim.cores.length - 1))) % victim.cores.length;
  return [victim.cores[i], victim.cores[j]];
}

describe('sibling caches behind a victim L3', () => {
  it('exist only where the socket shares a victim cache, and never include the core itself', () => {
    for (const [name, spec] of specs) {
      const table = siblingCachesByCore(spec);
      const victim = spec.caches.some((c) => c.victim);
      expect(table.size > 0, name).toBe(victim);
      for (const [core, { victim: v, siblings }] of table) {
        expect(v.cores).toContain(core);
        for (const s of siblings) {
          expect(s.cores).not.toContain(core);
          for (const other of s.cores) expect(v.cores).toContain(other);
        }
      }
    }
  });

  it('a segment a sibling has just written is read faster than a cold one, and not from memory', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...withVictim),
        fc.nat(),
        fc.nat(),
        fc.integer({ min: 4 * KiB, max: 128 * KiB }),
        (machine, a, b, bytes) => {
          const spec = specs.get(machine)!;
          const [writer, reader] = sameSocket(spec, a, b);
          const warm = readAfterWrite(spec, writer, reader, bytes, true);
          const cold = readAfterWrite(spec, writer, reader, bytes, false);
          expect(warm.ns).toBeLessThan(cold.ns);
          expect(warm.resource ?? '').not.toMatch(/^mem/);
        },
      ),
      { numRuns: 25 },
    );
  });

  it('a clean line in a sibling’s cache still comes from its home (MOESI: only Modified or Owned lines answer)', () => {
    for (const machine of withVictim) {
      const spec = specs.get(machine)!;
      const [first, reader] = sameSocket(spec, 0, 0);
      const cold = readAfterWrite(spec, first, reader, 64 * KiB, false);
      const afterCleanRead = readAfterWrite(spec, first, reader, 64 * KiB, false, true);
      expect(afterCleanRead.ns, machine).toBeCloseTo(cold.ns, 6);
    }
  });
});
