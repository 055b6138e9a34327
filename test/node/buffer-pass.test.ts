// A rank's own pass over its buffer (Node.pass): a program writing what it will send or reading
// what it received. The caches see it as a copy's destination or source; the content stays.
import { describe, expect, it } from 'vitest';
import { Simulation } from '../../sim/engine/simulation.ts';
import { Node } from '../../sim/node/node.ts';
import type { Program } from '../../sim/engine/program.ts';
import { range, type Buffer } from '../../sim/node/buffer.ts';
import { Content } from '../../sim/node/content.ts';
import { tinyMachine } from '../helpers/machines.ts';
import { run } from '../p2p/run.ts';

const KiB = 1024;

/** Runs `steps` on a fresh node of the tiny machine (2 packages of 2 cores) and returns, per
 *  step, how long it took. */
function timed(steps: (node: Node, buf: Buffer) => Program<void>[], bytes = 64 * KiB): number[] {
  const sim = new Simulation({ seed: 1 });
  const node = new Node(sim, tinyMachine());
  const buf = node.allocate('buf', bytes, 0, 0);
  buf.content = Content.fresh(bytes, 'data');
  const took: number[] = [];
  sim.spawn(
    'passes',
    (function* () {
      for (const step of steps(node, buf)) {
        const start = sim.now;
        yield* step;
        took.push(sim.now - start);
      }
    })(),
  );
  sim.run();
  return took;
}

describe('a pass over a buffer', () => {
  it('leaves the content as it was, written or read', () => {
    const sim = new Simulation({ seed: 1 });
    const node = new Node(sim, tinyMachine());
    const buf = node.allocate('buf', 10_000, 0, 0);
    buf.content = Content.fresh(10_000, 'data');
    sim.spawn(
      'passes',
      (function* () {
        yield* node.pass(0, range(buf), 'write', { rank: 0, label: 'write' });
        yield* node.pass(1, range(buf), 'read', { rank: 1, label: 'read' });
      })(),
    );
    sim.run();
    expect(buf.content.equals(Content.fresh(10_000, 'data'))).toBe(true);
  });

  it('reads a buffer its own core just wrote faster than a cold one', () => {
    const [cold] = timed((node, buf) => [node.pass(0, range(buf), 'read', { rank: 0, label: 'cold' })]);
    const [, warm] = timed((node, buf) => [
      node.pass(0, range(buf), 'write', { rank: 0, label: 'write' }),
      node.pass(0, range(buf), 'read', { rank: 0, label: 'warm' }),
    ]);
    expect(warm).toBeGreaterThan(0);
    expect(warm).toBeLessThan(cold);
  });

  it("brings the buffer into the writer's caches: another socket's core then reads it from there", () => {
    const [, , fromCache] = timed((node, buf) => [
      node.pass(0, range(buf), 'write', { rank: 0, label: 'write' }),
      node.pass(0, range(buf), 'read', { rank: 0, label: 'settle' }),
      node.pass(2, range(buf), 'read', { rank: 2, label: 'remote' }),
    ]);
    const [fromMemory] = timed((node, buf) => [node.pass(2, range(buf), 'read', { rank: 2, label: 'remote' })]);
    expect(fromCache).not.toBe(fromMemory);
  });

  it('records its step in the trace under its access', () => {
    const sim = new Simulation({ seed: 1 });
    const node = new Node(sim, tinyMachine());
    const buf = node.allocate('buf', 4096, 0, 0);
    sim.spawn(
      'passes',
      (function* () {
        yield* node.pass(0, range(buf), 'write', { rank: 0, label: 'init' });
        yield* node.pass(0, range(buf), 'read', { rank: 0, label: 'check' });
      })(),
    );
    sim.run();
    const totals = node.trace.totalsByKind();
    expect(Object.keys(totals).sort()).toEqual(['read', 'write']);
    expect(totals.write).toBeGreaterThan(0);
    expect(totals.read).toBeGreaterThan(0);
  });
});

describe("the KNEM copy-strategy benchmark's buffer use (param touch)", () => {
  const machine = tinyMachine();
  for (const algorithm of [
    'knemcopy:inline-read',
    'knemcopy:inline-write',
    'knemcopy:region-read',
    'knemcopy:region-write',
  ]) {
    // Not at 1 byte: the writer's pass may then run while it waits for the reader's cookie, and its
    // copy reads the source from its own cache instead of memory.
    it(`${algorithm}: delivers the data and, from a page, takes longer touching both buffers`, () => {
      for (const bytes of [1, 4097, 256 * KiB]) {
        const plain = run({ machine, cores: [0, 2], algorithm, bytes });
        const touched = run({ machine, cores: [0, 2], algorithm, bytes, params: { touch: true } });
        expect(touched.totals.write, `${bytes} B`).toBeGreaterThan(0);
        expect(touched.totals.read, `${bytes} B`).toBeGreaterThan(0);
        expect(plain.totals.write ?? 0).toBe(0);
        if (bytes > 1)
          for (let i = 0; i < plain.times.length; i++) expect(touched.times[i]).toBeGreaterThan(plain.times[i]);
      }
    });
  }

  it('rejects a touch that is not true or false, naming the field', () => {
    expect(() =>
      run({ machine, cores: [0, 2], algorithm: 'knemcopy:inline-read', bytes: 4096, params: { touch: 'yes' } }),
    ).toThrow(/params\.touch must be true or false, got "yes"/);
  });
});
