// Vader's fast boxes (sim/kernel/shm/fast-box.ts): set up at exactly the sender's 16th FIFO post to
// a peer, while the receiver has one of its 32 left; places in the ring taken in turn, aligned,
// refused while a message not yet taken holds them.
import { describe, expect, it } from 'vitest';
import { Simulation } from '../../sim/engine/simulation.ts';
import { Node } from '../../sim/node/node.ts';
import { World } from '../../sim/node/world.ts';
import { loadPreset } from '../../hardware/presets.ts';
import { smBtlCosts } from '../../sim/kernel/shm/costs.ts';
import { countFifoPost, FAST_BOX_ALIGN, placeInBox } from '../../sim/kernel/shm/fast-box.ts';

function world(ranks: number): World {
  const sim = new Simulation({ seed: 'fast boxes' });
  const spec = loadPreset('knl');
  return new World(
    new Node(sim, spec),
    spec.cores.slice(0, ranks).map((c) => c.id),
  );
}

describe("vader's fast boxes", () => {
  it('are set up at the 16th post, and a receiver gives out 32', () => {
    const w = world(34);
    const posts = (from: number, n: number) => {
      for (let i = 0; i < n; i++) countFifoPost(w, smBtlCosts, from, 0);
    };
    posts(1, smBtlCosts.fastBoxThreshold - 1);
    expect(placeInBox(w, 1, 0, 22, 100)).toBeUndefined();
    posts(1, 1);
    expect(placeInBox(w, 1, 0, 22, 100)).toBeDefined();
    for (let from = 2; from <= 33; from++) posts(from, smBtlCosts.fastBoxThreshold);
    // Senders 1 to 32 have their box; the 33rd found none left, and later posts do not try again.
    expect(placeInBox(w, 32, 0, 22, 100)).toBeDefined();
    expect(placeInBox(w, 33, 0, 22, 100)).toBeUndefined();
    posts(33, 100);
    expect(placeInBox(w, 33, 0, 22, 100)).toBeUndefined();
  });

  it('gives places in turn, aligned, and starts over once the ring is taken back', () => {
    const w = world(2);
    for (let i = 0; i < smBtlCosts.fastBoxThreshold; i++) countFifoPost(w, smBtlCosts, 0, 1);
    const places = Array.from({ length: 4 }, () => placeInBox(w, 0, 1, 22, 1000));
    // 1022 bytes take 1024: three fit in the 4064 after the first aligned slot, the fourth waits.
    expect(places.slice(0, 3).map((p) => p!.slot.offset)).toEqual([
      FAST_BOX_ALIGN + 22,
      FAST_BOX_ALIGN + 1024 + 22,
      FAST_BOX_ALIGN + 2048 + 22,
    ]);
    expect(places[3]).toBeUndefined();
    places[0]!.release();
    const again = placeInBox(w, 0, 1, 22, 1000);
    expect(again?.slot.offset).toBe(FAST_BOX_ALIGN + 22);
    expect(placeInBox(w, 0, 1, 22, 1000)).toBeUndefined();
  });
});
