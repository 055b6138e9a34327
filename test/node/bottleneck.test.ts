// The trace names the resource that bounded a copy under the contention it met, not the one that
// would bound it on an idle machine.
import { describe, expect, it } from 'vitest';
import { Simulation } from '../../sim/engine/simulation.ts';
import { Node } from '../../sim/node/node.ts';
import { range } from '../../sim/node/buffer.ts';
import { Content } from '../../sim/node/content.ts';
import { tinyMachine } from '../helpers/machines.ts';

const MiB = 1024 * 1024;

// Copy engine 8 B/ns, memory 24 B/ns. A cold 64 MiB copy within NUMA 0 reads 64 MiB from mem0 and
// spills 60 of its 64 MiB of writes there (the 8 MiB L3 keeps half): 1.94 B of mem0 per byte, so
// alone mem0 would allow 12.4 B/ns and the core's 8 bound it. Two such copies on one socket get
// 24 / (2 * 1.94) = 6.2 B/ns each from mem0, below their cores' 8: mem0 bounds both.
const machine = () => tinyMachine({ copyBandwidth: 8, memoryBandwidth: 24 });

/** Runs one copy per entry, all starting at 0 on buffers local to the core, and returns the resource each one's trace event names. */
function boundBy(copies: Array<{ core: number; bytes: number; op?: 'copy' | 'reduce' }>): Array<string | undefined> {
  const sim = new Simulation({ seed: 1 });
  const node = new Node(sim, machine(), { keepTrace: true });
  copies.forEach((c, i) => {
    // Buffers live on the copying core's own NUMA node.
    const numa = node.topo.core(c.core).numa;
    const src = node.allocate(`src${i}`, c.bytes, 0, numa);
    src.content = Content.fresh(c.bytes, `src${i}`);
    const dst = node.allocate(`dst${i}`, c.bytes, 0, numa);
    dst.content = Content.fresh(c.bytes, `dst${i}`);
    sim.spawn(
      `copy${i}`,
      (function* () {
        if (c.op === 'reduce')
          yield* node.reduce(c.core, 'sum', range(src), range(dst), { rank: i, label: `copy${i}` });
        else yield* node.copy(c.core, range(src), range(dst), { rank: i, label: `copy${i}` });
      })(),
    );
  });
  sim.run();
  return copies.map((_, i) => {
    const events = node.trace.events.filter((e) => e.label === `copy${i}`);
    expect(events).toHaveLength(1);
    return events[0].resource;
  });
}

describe('trace: the resource that bounded a copy', () => {
  it("a copy alone names its core's copy engine", () => {
    expect(boundBy([{ core: 0, bytes: 64 * MiB }])).toEqual(['core0']);
  });

  it('two copies sharing one memory controller both name that controller', () => {
    expect(
      boundBy([
        { core: 0, bytes: 64 * MiB },
        { core: 1, bytes: 64 * MiB },
      ]),
    ).toEqual(['mem0', 'mem0']);
  });

  it('a long copy that meets a short competitor names its core; the competitor names the controller', () => {
    // Both run at mem0's shared rate while the 8 MiB copy lasts (about a sixth of the long copy's
    // life); the long one then runs alone, bounded by its core.
    expect(
      boundBy([
        { core: 0, bytes: 64 * MiB },
        { core: 1, bytes: 8 * MiB },
      ]),
    ).toEqual(['core0', 'mem0']);
  });

  it('copies on different sockets do not share a controller and each names its core', () => {
    expect(
      boundBy([
        { core: 0, bytes: 64 * MiB },
        { core: 2, bytes: 64 * MiB },
      ]),
    ).toEqual(['core0', 'core2']);
  });

  it('a reduction of no bytes names nothing, since nothing bounded it', () => {
    expect(boundBy([{ core: 0, bytes: 0, op: 'reduce' }])).toEqual([undefined]);
  });
});
