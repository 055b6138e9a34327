// Where a copy's stores land: in the innermost of the core's caches that holds the copy's working set
// (the destination in half of it, the source beside it), at that cache's bandwidth; a copy too large
// for every private level streams its dirty lines out to the outermost cache.
import { describe, expect, it } from 'vitest';
import { Simulation } from '../../sim/engine/simulation.ts';
import { Node } from '../../sim/node/node.ts';
import { range } from '../../sim/node/buffer.ts';
import { Content } from '../../sim/node/content.ts';
import { tinyMachine } from '../helpers/machines.ts';

const KiB = 1024;

/** The time of the second of two identical copies by core 0 (the first warms both buffers). */
function warmCopyNs(bytes: number): number {
  // A copy engine that never binds, an L2 of 64 B/ns and an L3 of 4 B/ns per socket.
  const sim = new Simulation({ seed: 1 });
  const node = new Node(sim, tinyMachine({ copyBandwidth: 1000, l3Bandwidth: 4 }));
  const src = node.allocate('src', bytes, 0, 0);
  src.content = Content.fresh(bytes, 'src');
  const dst = node.allocate('dst', bytes, 0, 0);
  let took = 0;
  sim.spawn(
    'copier',
    (function* () {
      yield* node.copy(0, range(src), range(dst), { rank: 0, label: 'warm-up' });
      const start = sim.now;
      yield* node.copy(0, range(src), range(dst), { rank: 0, label: 'warm' });
      took = sim.now - start;
    })(),
  );
  sim.run();
  expect(dst.content.equals(src.content)).toBe(true);
  return took;
}

describe('the cache level a copy writes at', () => {
  it('is the L2 for a warm copy that fits in it: the source read, the read for ownership and the store all at L2 speed', () => {
    const n = 64 * KiB; // the L2 is 256 KiB: source and destination fit
    // L2 latency (4 ns) for the first access, then 3 bytes of L2 traffic per byte copied at 64 B/ns.
    expect(warmCopyNs(n)).toBeCloseTo(4 + (3 * n) / 64, 6);
  });

  it('is the outermost cache for a warm copy larger than half the L2, which then bounds it', () => {
    const n = 1024 * KiB; // beyond the 256 KiB L2, within the 8 MiB L3
    // The source comes from the L3 and the stores stream back into it: at least 2 bytes of L3
    // traffic per byte at 4 B/ns (the read for ownership adds the part of the destination the L2
    // no longer holds), at most 3.
    const ns = warmCopyNs(n);
    expect(ns).toBeGreaterThanOrEqual((2 * n) / 4);
    expect(ns).toBeLessThan((3 * n) / 4 + 100);
  });
});
