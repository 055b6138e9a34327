// Per-core miss slots (Little's law) charge each line a core fetches once: the point-to-point
// shapes (docs/shapes.md) rest on these latency-bound copies, so a fetch counted twice would bend
// them. Compared between simulated operations on one preset, never against typed-in times.
import { describe, expect, it } from 'vitest';
import { Simulation } from '../../sim/engine/simulation.ts';
import { Node } from '../../sim/node/node.ts';
import { range } from '../../sim/node/buffer.ts';
import { Content } from '../../sim/node/content.ts';
import { loadPreset } from '../../hardware/presets.ts';

const MiB = 1 << 20;

/** Time (ns) of one copy or reduction of a cold 1 MiB buffer into another by core 0. */
function cold(machine: string, op: 'copy' | 'reduce'): { ns: number; bound?: string } {
  const sim = new Simulation({ seed: 'miss-time' });
  const node = new Node(sim, loadPreset(machine), { keepTrace: true });
  const src = node.allocate('src', MiB, 0, 0);
  const dst = node.allocate('dst', MiB, 0, 0);
  src.content = Content.fresh(MiB, 'src');
  dst.content = Content.fresh(MiB, 'dst');
  sim.spawn(
    op,
    (function* () {
      if (op === 'copy') yield* node.copy(0, range(src), range(dst), { rank: 0, label: op });
      else yield* node.reduce(0, 'sum', range(src), range(dst), { rank: 0, label: op });
    })(),
  );
  sim.run();
  const [event] = node.trace.events;
  return { ns: event.end - event.start, bound: event.resource };
}

describe('miss slots', () => {
  it("a reduction fetches each destination line once: its load, not again for the store's ownership", () => {
    // Both fetch two lines from memory per line of output (copy: source and the destination's read
    // for ownership; reduction: source and destination), and both are bound by the lines the core's
    // prefetcher keeps in flight.
    const copy = cold('broadwell', 'copy');
    const reduce = cold('broadwell', 'reduce');
    expect(copy.bound).toBe('core0 stream prefetches in flight');
    expect(reduce.bound).toBe('core0 stream prefetches in flight');
    expect(reduce.ns / copy.ns).toBeCloseTo(1, 6);
  });
});
