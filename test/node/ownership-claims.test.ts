// Stores into lines another core of the socket holds (docs/model.md, "Ownership claims"): over
// random presets, sizes and claim counts, never against typed-in times.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Simulation } from '../../sim/engine/simulation.ts';
import { Node } from '../../sim/node/node.ts';
import { range } from '../../sim/node/buffer.ts';
import { Content } from '../../sim/node/content.ts';
import { loadPreset, presetNames } from '../../hardware/presets.ts';
import type { MachineSpec } from '../../hardware/spec.ts';
import { propRuns } from '../helpers/prop-runs.ts';

const KiB = 1024;

/** Two cores of one socket that share a cache but not their private ones, if the machine has them. */
function peers(spec: MachineSpec): [number, number] | undefined {
  for (const shared of spec.caches.filter((c) => c.cores.length > 1 && !c.memorySide)) {
    const [a, b] = shared.cores;
    const privateOf = (core: number) => spec.caches.some((c) => c.cores.length === 1 && c.cores[0] === core);
    if (b !== undefined && privateOf(a) && privateOf(b)) return [a, b];
  }
  return undefined;
}

const specs = new Map(presetNames().map((name) => [name, loadPreset(name)]));
const machines = [...specs.keys()].filter((name) => peers(specs.get(name)!) !== undefined);

/** The smallest private cache of a core: a buffer a quarter that size stays whole in it, with another. */
function smallestPrivate(spec: MachineSpec, core: number): number {
  return Math.min(...spec.caches.filter((c) => c.cores.length === 1 && c.cores[0] === core).map((c) => c.sizeBytes));
}

/**
 * Time of the writer's copy into a buffer, warm in its caches, after the reader has read the
 * buffer (`peerRead`) or not; claims in flight as given (undefined: the mechanism off).
 */
function copyIn(machine: string, bytes: number, claims: number | undefined, peerRead: boolean): number {
  const spec0 = specs.get(machine)!;
  const spec: MachineSpec = { ...spec0, costs: { ...spec0.costs, claimConcurrency: claims } };
  const [writer, reader] = peers(spec)!;
  const sim = new Simulation({ seed: 'claims' });
  const node = new Node(sim, spec);
  const numa = spec.cores.find((c) => c.id === writer)!.numa;
  const src = node.allocate('src', bytes, 0, numa);
  src.content = Content.fresh(bytes, 'src');
  const ring = node.allocate('ring', bytes, -1, numa);
  const out = node.allocate('out', bytes, 1, numa);
  let ns = 0;
  sim.spawn(
    'writer and reader',
    (function* () {
      // Warm: the writer's source and the ring in its caches, as in a pipeline's steady state.
      yield* node.copy(writer, range(src), range(ring), { rank: 0, label: 'warm-up' });
      yield* node.copy(writer, range(src), range(ring), { rank: 0, label: 'warm-up' });
      if (peerRead) yield* node.copy(reader, range(ring), range(out), { rank: 1, label: 'copy-out' });
      const start = sim.now;
      yield* node.copy(writer, range(src), range(ring), { rank: 0, label: 'copy-in' });
      ns = sim.now - start;
    })(),
  );
  sim.run();
  return ns;
}

describe('ownership claims on lines another core holds', () => {
  const arb = fc.record({
    machine: fc.constantFrom(...machines),
    bytes: fc.integer({ min: 64, max: 256 * KiB }),
    claims: fc.double({ min: 0.25, max: 8, noNaN: true }),
  });

  it('never make a store faster, and cost nothing where no other core holds the lines', () => {
    fc.assert(
      fc.property(arb, ({ machine, bytes, claims }) => {
        expect(copyIn(machine, bytes, claims, true)).toBeGreaterThanOrEqual(copyIn(machine, bytes, undefined, true));
        expect(copyIn(machine, bytes, claims, false)).toBeCloseTo(copyIn(machine, bytes, undefined, false), 6);
      }),
      { numRuns: propRuns(30) },
    );
  });

  it('cost less the more claims a core keeps in flight', () => {
    fc.assert(
      fc.property(arb, ({ machine, bytes, claims }) => {
        expect(copyIn(machine, bytes, 2 * claims, true)).toBeLessThanOrEqual(copyIn(machine, bytes, claims, true));
      }),
      { numRuns: propRuns(30) },
    );
  });

  it('take at least the shared cache latency per line held, over the claims in flight', () => {
    fc.assert(
      fc.property(fc.constantFrom(...machines), fc.double({ min: 0.25, max: 8, noNaN: true }), (machine, claims) => {
        const spec = specs.get(machine)!;
        const [writer, reader] = peers(spec)!;
        // Small enough that the reader's caches keep the whole buffer it read.
        const bytes = Math.floor(smallestPrivate(spec, reader) / 4 / 64) * 64;
        const shared = spec.caches.find((c) => c.cores.length > 1 && c.cores.includes(writer) && !c.memorySide)!;
        const lines = bytes / (spec.costs.lineBytes ?? 64);
        const on = copyIn(machine, bytes, claims, true);
        // The claims run beside the copy's other limits, so the slower of the two holds it.
        expect(on).toBeGreaterThanOrEqual((lines * shared.latencyNs) / claims - 1e-6);
        expect(on).toBeGreaterThanOrEqual(copyIn(machine, bytes, undefined, true));
      }),
      { numRuns: propRuns(30) },
    );
  });
});
