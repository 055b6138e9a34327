import { describe, expect, it } from 'vitest';
import { Simulation } from '../../sim/engine/simulation.ts';
import { Node } from '../../sim/node/node.ts';
import { range } from '../../sim/node/buffer.ts';
import { Content } from '../../sim/node/content.ts';
import { tinyMachine } from '../helpers/machines.ts';

const MiB = 1024 * 1024;

function setup(opts = {}) {
  const sim = new Simulation({ seed: 1 });
  const node = new Node(sim, tinyMachine(opts));
  return { sim, node };
}

function timeCopies(
  node: Node,
  sim: Simulation,
  copies: Array<{ core: number; srcNuma: number; dstNuma: number; bytes: number }>,
) {
  const ends: number[] = [];
  copies.forEach((c, i) => {
    const src = node.allocate(`src${i}`, c.bytes, 0, c.srcNuma);
    src.content = Content.fresh(c.bytes, `src${i}`);
    const dst = node.allocate(`dst${i}`, c.bytes, 0, c.dstNuma);
    sim.spawn(
      `copy${i}`,
      (function* () {
        yield* node.copy(c.core, range(src), range(dst), { rank: i, label: `copy${i}` });
        ends[i] = sim.now;
        expect(dst.content.equals(src.content)).toBe(true);
      })(),
    );
  });
  sim.run();
  return ends;
}

describe('node model: copies as flows', () => {
  it('one cold copy on an idle machine takes bytes / bottleneck bandwidth, plus the first-miss latency', () => {
    // Core copy engine 8, memory 10 B/ns: the source, the destination's read for ownership and the
    // part of the writes that spills all hit mem0. 64 MiB with an 8 MiB L3: writes keep 4 MiB in
    // the L3, 60 MiB spill to memory.
    const { sim, node } = setup();
    const n = 64 * MiB;
    const [end] = timeCopies(node, sim, [{ core: 0, srcNuma: 0, dstNuma: 0, bytes: n }]);
    const memShare = 2 + (n - 4 * MiB) / n; // weight of mem0 per byte moved
    const rate = Math.min(8, 10 / memShare, 40 / ((4 * MiB) / n));
    expect(end).toBeCloseTo(80 + n / rate, 3);
  });

  it('two copies sharing one memory controller each get half of it', () => {
    // No L3 to keep written lines: otherwise the second copy's reads would evict the first one's
    // dirty lines and pay their write-back, which is the cache's effect, not the controller's.
    const opts = { copyBandwidth: 100, memoryBandwidth: 10, l3Bytes: 0 };
    const { sim, node } = setup(opts);
    const n = 64 * MiB;
    const [a, b] = timeCopies(node, sim, [
      { core: 0, srcNuma: 0, dstNuma: 0, bytes: n },
      { core: 1, srcNuma: 0, dstNuma: 0, bytes: n },
    ]);
    const [alone] = timeCopies(
      ...(() => {
        const s = setup(opts);
        return [s.node, s.sim] as const;
      })(),
      [{ core: 0, srcNuma: 0, dstNuma: 0, bytes: n }],
    );
    expect(a).toBeCloseTo(b, 6);
    // Twice the bytes through the same controller: twice the time, up to the fixed latency.
    expect(a - 80).toBeCloseTo(2 * (alone - 80), 3);
  });

  it('a copy reading remote memory is bounded by the inter-socket link', () => {
    const { sim, node } = setup({ copyBandwidth: 100, memoryBandwidth: 100, linkBandwidth: 2 });
    const n = 16 * MiB;
    // Source on NUMA 1, core 0 on package 0: every source byte crosses pkg1->pkg0 at 2 B/ns.
    const [end] = timeCopies(node, sim, [{ core: 0, srcNuma: 1, dstNuma: 0, bytes: n }]);
    expect(end).toBeCloseTo(80 + 50 + n / 2, 3);
  });

  it('a warm copy (source cached) beats a cold one', () => {
    const { sim, node } = setup();
    const n = 1 * MiB;
    const src = node.allocate('src', n, 0, 0);
    src.content = Content.fresh(n, 'src');
    const dst = node.allocate('dst', n, 0, 0);
    const times: number[] = [];
    sim.spawn(
      'twice',
      (function* () {
        for (let i = 0; i < 2; i++) {
          const t0 = sim.now;
          yield* node.copy(0, range(src), range(dst), { rank: 0, label: 'copy' });
          times.push(sim.now - t0);
        }
      })(),
    );
    sim.run();
    expect(times[1]).toBeLessThan(times[0]);
  });

  it('content moves as it was when the copy started', () => {
    const { sim, node } = setup();
    const a = node.allocate('a', 100, 0, 0);
    a.content = Content.fresh(100, 'a');
    const b = node.allocate('b', 100, 0, 0);
    let copied = -1;
    let overwritten = -1;
    sim.spawn(
      'p',
      (function* () {
        yield* node.copy(0, range(a, 10, 50), range(b, 0, 50), { rank: 0, label: 'c' });
        copied = sim.now;
      })(),
    );
    // Another writer changes the source while the copy is in flight.
    sim.spawn(
      'w',
      (function* () {
        yield* sim.sleep(1);
        a.content.write(0, Content.fresh(100, 'later').slice(0, 100));
        overwritten = sim.now;
      })(),
    );
    sim.run();
    expect(overwritten).toBeGreaterThan(0);
    expect(copied).toBeGreaterThan(overwritten);
    expect(a.content.slice(10, 50)).toEqual(Content.fresh(100, 'later').slice(10, 50));
    expect(b.content.slice(0, 50)).toEqual(Content.fresh(100, 'a').slice(10, 50));
  });
});

describe('node model on the seed machines', () => {
  it('copies across the board interlink of ig are bounded by that link', async () => {
    const { loadPreset } = await import('../../hardware/presets.ts');
    const spec = loadPreset('ig');
    const link = spec.links.find((l) => l.name.startsWith('board interlink'))!;
    const sim = new Simulation({ seed: 1 });
    const node = new Node(sim, spec);
    const n = 8 * MiB;
    // Sources on NUMA 1 (first board), copying cores on package 5 (second board): the route
    // pkg1 -> pkg0 -> pkg4 -> pkg5 crosses the interlink with every byte. One core alone is held
    // back by its misses in flight over that long route; six together saturate the link.
    const cores = spec.cores.filter((c) => c.package === 5).map((c) => c.id);
    let end = 0;
    cores.forEach((core, i) => {
      const src = node.allocate(`src${i}`, n, 0, 1);
      src.content = Content.fresh(n, `src${i}`);
      const dst = node.allocate(`dst${i}`, n, 0, 5);
      sim.spawn(
        `copy${i}`,
        (function* () {
          yield* node.copy(core, range(src), range(dst), { rank: i, label: 'cross-board' });
          end = Math.max(end, sim.now);
        })(),
      );
    });
    sim.run();
    const carried = node.net.resource(`${link.name} pkg0->pkg4`)!.bytesCarried;
    expect(carried).toBeCloseTo(cores.length * n, -3);
    // Aggregate throughput equals the interlink's bandwidth (up to the fixed access latency).
    expect(end).toBeGreaterThanOrEqual((cores.length * n) / link.bandwidth);
    expect((cores.length * n) / end).toBeGreaterThan(0.99 * link.bandwidth);
  });
});
