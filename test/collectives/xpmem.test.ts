// The XPMEM collectives: every one delivers exactly what MPI requires on random machines,
// communicators, placements, roots, sizes, layouts and reduction operators (driver.ts); the
// allreduce's results equal the reference reduction with and without the registration cache.
import { describe, expect, it } from 'vitest';
import { runAlgorithm } from '../../algorithms/harness/simulate.ts';
import { catalogue } from '../../algorithms/catalogue.ts';
import { collectiveNames } from '../../algorithms/collectives/ops.ts';
import type { AllreduceArgs } from '../../algorithms/collectives/args.ts';
import { partition } from '../../algorithms/collectives/xpmem/partition.ts';
import { expectedReduction, piecesEqual } from '../../sim/node/content.ts';
import { tinyMachine } from '../helpers/machines.ts';

const XPMEM = catalogue
  .listAlgorithms()
  .filter((a) => collectiveNames.has(a.operation) && a.name.endsWith(':xpmem'))
  .map((a) => a.name);

describe('XPMEM collectives deliver what MPI requires', () => {
  it('registers the reductions, the broadcast and the gathers', () => {
    expect(XPMEM).toEqual(['allreduce:xpmem', 'bcast:xpmem', 'gather:xpmem', 'gatherv:xpmem', 'reduce:xpmem']);
  });
  // Their data-correctness property runs with every catalogued algorithm's (properties.*.test.ts).
});

describe('allreduce:xpmem', () => {
  const run = (params: Record<string, string | boolean>, n: number, bytes: number) =>
    runAlgorithm({
      machine: tinyMachine({ packages: 2, coresPerPackage: 4 }),
      cores: [5, 0, 7, 2, 1, 6, 3, 4].slice(0, n),
      algorithm: 'allreduce:xpmem',
      call: { bytes, root: 0, params },
      cache: 'on',
      iterations: 3,
      warmup: 1,
      seed: 'allreduce',
      keepTrace: true,
    });

  for (const regcache of [true, false]) {
    it(`every receive buffer holds the reference reduction (registration cache ${regcache ? 'on' : 'off'})`, () => {
      for (const op of ['sum', 'max', 'band']) {
        const n = 7;
        const bytes = 1001; // not a multiple of the rank count: unequal partitions
        const out = run({ op, regcache }, n, bytes);
        const want = expectedReduction(
          op,
          Array.from({ length: n }, (_, r) => `r${r}.send`),
          0,
          bytes,
        );
        for (const a of out.args as AllreduceArgs[])
          expect(piecesEqual(a.recv.buf.content.slice(a.recv.offset, bytes), want)).toBe(true);
      }
    });
  }

  it('attaches through the registration cache after the first call, and per call without it', () => {
    const count = (params: Record<string, boolean>) =>
      run(params, 4, 4096).events.filter((e) => e.kind === 'xpmem-attach' && e.label.startsWith('xpmem_attach '))
        .length;
    // Measured iterations only (warm-up traced out): the cache serves every attachment again.
    expect(count({ regcache: true })).toBe(0);
    // Without it, 2 (n - 1) attachments per rank and call: 4 ranks, 3 measured calls.
    expect(count({ regcache: false })).toBe(2 * 3 * 4 * 3);
  });

  it('fails with the mechanism error on a node without XPMEM', () => {
    const machine = tinyMachine();
    machine.kernel.mechanisms.xpmem = false;
    expect(() =>
      runAlgorithm({
        machine,
        cores: [0, 1],
        algorithm: 'allreduce:xpmem',
        call: { bytes: 64, root: 0, params: {} },
        cache: 'off',
        iterations: 1,
        warmup: 0,
        seed: 's',
      }),
    ).toThrow(/xpmem/i);
  });
});

describe('partitions', () => {
  it('tile the message in order, sizes within one byte', () => {
    for (const [bytes, n] of [
      [0, 3],
      [1, 4],
      [10, 3],
      [1001, 7],
      [64, 64],
    ]) {
      let at = 0;
      const sizes = [];
      for (let i = 0; i < n; i++) {
        const p = partition(bytes, n, i);
        expect(p.offset).toBe(at);
        at += p.bytes;
        sizes.push(p.bytes);
      }
      expect(at).toBe(bytes);
      expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
    }
  });
});

describe('bcast:xpmem chunk', () => {
  const run = (chunk: number | undefined, bytes: number) =>
    runAlgorithm({
      machine: tinyMachine({ packages: 2, coresPerPackage: 4 }),
      cores: [0, 1, 2, 3, 4, 5, 6, 7],
      algorithm: 'bcast:xpmem',
      call: { bytes, root: 3, params: chunk === undefined ? {} : { chunk } },
      cache: 'off',
      iterations: 2,
      warmup: 1,
      seed: 'bcast chunk',
      keepTrace: true,
    });
  const reads = (out: ReturnType<typeof run>) =>
    out.events.filter((e) => e.label === 'bcast: xpmem read' && e.rank === 0).map((e) => e.bytes);

  it('copies the whole message at once by default and with chunk 0', () => {
    expect(reads(run(undefined, 10_000))).toEqual([10_000, 10_000]);
    expect(run(0, 10_000).times).toEqual(run(undefined, 10_000).times);
  });

  it('copies chunk after chunk, the last one shorter, and still delivers the root data (checked by the harness)', () => {
    expect(reads(run(4096, 10_000))).toEqual([4096, 4096, 1808, 4096, 4096, 1808]);
  });
});
