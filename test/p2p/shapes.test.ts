// The shapes of the seeds' point-to-point figures that the model produces on the preset machines
// (docs/shapes.md lists the commands and numbers). Each compares simulated times or breakdown
// shares against each other, never against a typed-in number of the papers.
import { describe, expect, it } from 'vitest';
import { run, share, time, type Run } from './run.ts';

const KiB = 1024;
const MiB = 1024 * KiB;

/** Broadwell (seed 001's machine): cores 0 and 1 share the L3; cores 0 and 14 are on two sockets. */
const SAME_SOCKET = [0, 1];
const CROSS_SOCKET = [0, 14];

const ratio = (r: Omit<Run, 'algorithm'>, algorithm: string, baseline: string) => time({ ...r, algorithm }) / time({ ...r, algorithm: baseline });

describe('shared memory against kernel-assisted single copies (ping-pong)', () => {
  it('the double copy is faster for small messages, on every placement and mechanism', () => {
    for (const cores of [[0, 1], [0, 4]]) {
      expect(ratio({ machine: 'dancer', cores, bytes: 4 * KiB }, 'pingpong:knem', 'pingpong:shm')).toBeGreaterThan(1);
    }
    // XPMEM between cores sharing Broadwell's L3 already draws level at 4 KiB, so 2 KiB here.
    for (const cores of [SAME_SOCKET, CROSS_SOCKET]) {
      for (const single of ['pingpong:cma', 'pingpong:xpmem']) {
        expect(ratio({ machine: 'broadwell', cores, bytes: 2 * KiB }, single, 'pingpong:shm')).toBeGreaterThan(1);
      }
    }
  });

  it('with no shared cache and cold caches, the single copies overtake it above the crossover', () => {
    const r = { machine: 'broadwell', cores: CROSS_SOCKET };
    expect(ratio({ ...r, bytes: 64 * KiB }, 'pingpong:cma', 'pingpong:shm')).toBeLessThan(1);
    for (const bytes of [64 * KiB, 1 * MiB]) expect(ratio({ ...r, bytes }, 'pingpong:xpmem', 'pingpong:shm')).toBeLessThan(1);
  });

  /** Smallest power-of-two size from 1 KiB up where `single` beats the double copy. */
  function crossover(machine: string, cores: number[], single: string): number {
    for (let bytes = 1 * KiB; bytes <= 256 * KiB; bytes *= 2) {
      if (ratio({ machine, cores, bytes, iterations: 1 }, single, 'pingpong:shm') < 1) return bytes;
    }
    return Infinity;
  }

  it('the crossover moves with the placement and with the machine', () => {
    const near = crossover('broadwell', SAME_SOCKET, 'pingpong:xpmem');
    const far = crossover('broadwell', CROSS_SOCKET, 'pingpong:xpmem');
    expect(near).toBeLessThan(far);
    expect(far).toBeLessThan(Infinity);
    expect(crossover('knl', SAME_SOCKET, 'pingpong:cma')).toBeLessThan(crossover('broadwell', SAME_SOCKET, 'pingpong:cma'));
  });
});

describe('ping-ping: both ranks send at once', () => {
  it("the double copy's per-process time grows over ping-pong's while KNEM's holds", () => {
    const r = { machine: 'dancer', cores: [0, 4], bytes: 1 * MiB };
    const slowdown = (transport: string) => time({ ...r, algorithm: `pingping:${transport}` }) / time({ ...r, algorithm: `pingpong:${transport}` });
    expect(slowdown('shm')).toBeGreaterThan(1.1);
    expect(slowdown('knem')).toBeLessThan(1.02);
  });
});

describe('CMA one-to-all', () => {
  it("the share of time spent waiting on the root's address-space lock grows with the readers", () => {
    const waits = [2, 4, 8].map((n) => {
      const out = run({ machine: 'broadwell', cores: Array.from({ length: n }, (_, i) => i), algorithm: 'onetoall:cma', bytes: 64 * KiB, iterations: 1 });
      return share(out.totals, ['lock-wait']);
    });
    expect(waits[0]).toBe(0);
    expect(waits[1]).toBeGreaterThan(waits[0]);
    expect(waits[2]).toBeGreaterThan(waits[1]);
  });
});

describe('XPMEM registration cache', () => {
  const REGISTER = ['xpmem-get', 'xpmem-attach', 'xpmem-detach'];
  const r = { machine: 'broadwell', cores: CROSS_SOCKET, algorithm: 'pingpong:xpmem', bytes: 4 * KiB };

  it('without it a small message spends much of its time registering; with it repeated transfers only copy', () => {
    const off = run({ ...r, params: { regcache: false } });
    const on = run({ ...r, params: { regcache: true } });
    expect(share(off.totals, REGISTER)).toBeGreaterThan(share(off.totals, ['copy']));
    // Measured iterations follow a warm-up that filled the cache: no registration step remains.
    expect(share(on.totals, REGISTER)).toBe(0);
    expect(on.times[0]).toBeLessThan(off.times[0]);
  });
});
