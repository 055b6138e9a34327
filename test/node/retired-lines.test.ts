// Cold calls keep what earlier calls wrote (CacheState.retire, Node.clearCaches): a retired buffer
// is found in no cache, its dirty lines stay until evicted and are written back once, also where a
// private cache and the victim L3 behind it both hold the line.
import { describe, expect, it } from 'vitest';
import { Simulation } from '../../sim/engine/simulation.ts';
import { Node } from '../../sim/node/node.ts';
import { range, type Buffer } from '../../sim/node/buffer.ts';
import { loadPreset } from '../../hardware/presets.ts';

const K = 1024;

/** A node of `preset`, and a copy by `core` run to its end. */
function setup(preset: string) {
  const spec = loadPreset(preset);
  const sim = new Simulation({ seed: 'retired' });
  const node = new Node(sim, spec);
  const copy = (core: number, from: Buffer, to: Buffer) => {
    sim.spawn('copy', node.copy(core, range(from), range(to), { rank: 0, label: 'copy', routine: 'kernel' }));
    sim.run();
  };
  return { spec, node, copy };
}

describe('a buffer retired between cold calls', () => {
  it('leaves its dirty lines to be written back by whatever evicts them, once', () => {
    const { spec, node, copy } = setup('barcelona');
    const victim = spec.caches.find((c) => c.victim)!;
    const core = victim.cores[0];
    const l2 = node.cache(spec.caches.find((c) => !c.victim && c.level === 2 && c.cores.includes(core))!.id);
    const l3 = node.cache(victim.id);
    const src = node.allocate('src', 256 * K, 0);
    const x = node.allocate('x', 256 * K, 0);
    const y = node.allocate('y', 512 * K, 0);
    const z = node.allocate('z', 512 * K, 0);
    const far = [node.allocate('far1', 4096 * K, 1), node.allocate('far2', 4096 * K, 1)];
    const written = new Map<number, number>();
    const take = l3.takeWritebacks.bind(l3);
    l3.takeWritebacks = () => {
      const taken = take();
      for (const [buf, n] of taken ?? []) written.set(buf, (written.get(buf) ?? 0) + n);
      return taken;
    };

    copy(core, src, x); // x dirty in the L2
    copy(core, y, z); // x pushed out into the victim L3, dirty
    copy(core, src, x); // x written again: dirty in the L2, its older copy still in the L3
    expect(l2.dirtyBytes(x.id, 0, x.size)).toBe(x.size);
    expect(l3.dirtyBytes(x.id, 0, x.size)).toBe(x.size);

    node.clearCaches();
    expect(l2.residentBytes(x.id, 0, x.size) + l3.residentBytes(x.id, 0, x.size)).toBe(0);
    expect(written.get(x.id) ?? 0).toBe(0);
    // Streaming far more than both caches hold pushes every stale line out.
    copy(core, y, z);
    copy(core, far[0], far[1]);
    copy(core, far[1], far[0]);
    expect(l2.staleBytes + l3.staleBytes).toBe(0);
    expect(written.get(x.id)).toBe(x.size);
  });

  it('leaves nothing behind that it did not write', () => {
    const { spec, node, copy } = setup('dancer');
    const core = spec.cores[0].id;
    const a = node.allocate('a', 512 * K, 0);
    const b = node.allocate('b', 512 * K, 0);
    copy(core, a, b);
    node.clearCaches();
    for (const cache of spec.caches) {
      const state = node.cache(cache.id);
      expect(state.residentBytes(a.id, 0, a.size) + state.residentBytes(b.id, 0, b.size)).toBe(0);
      // Only the written buffer's lines stay, where they were dirty: at most b's bytes.
      expect(state.staleBytes).toBeLessThanOrEqual(b.size);
    }
    const outer = spec.caches.filter((c) => c.cores.includes(core)).sort((p, q) => q.level - p.level)[0];
    expect(node.cache(outer.id).staleBytes).toBe(b.size);
  });
});
