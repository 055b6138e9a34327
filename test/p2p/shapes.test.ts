// The shapes of the seeds' point-to-point figures that the model produces on the preset machines
// (docs/shapes.md explains why each shape appears or not, with the mechanism that is missing;
// docs/reproduction/README.md has the numbers). Each compares simulated times, breakdown shares or trace events
// against each other, never against a typed-in number of the papers.
import { describe, expect, it } from 'vitest';
import { run, share, time, type Run } from './run.ts';
import { loadPreset } from '../../hardware/presets.ts';

const KiB = 1024;
const MiB = 1024 * KiB;

/** Broadwell (seed 001's machine): cores 0 and 1 share the L3; cores 0 and 14 are on two sockets. */
const SAME_SOCKET = [0, 1];
const CROSS_SOCKET = [0, 14];

const ratio = (r: Omit<Run, 'algorithm'>, algorithm: string, baseline: string) =>
  time({ ...r, algorithm }) / time({ ...r, algorithm: baseline });

/** Durations (ns) of the kernel copies of one measured iteration, by rank. */
function kernelCopies(r: Run): Map<number, number> {
  const out = run({ ...r, iterations: 1, keepTrace: true });
  const copies = new Map<number, number>();
  for (const e of out.events)
    if (e.kind === 'kernel-copy') copies.set(e.rank, (copies.get(e.rank) ?? 0) + e.end - e.start);
  return copies;
}

describe('shared memory against kernel-assisted single copies (ping-pong)', () => {
  it('the double copy is faster for small messages, on every placement and mechanism', () => {
    for (const cores of [
      [0, 1],
      [0, 4],
    ]) {
      expect(ratio({ machine: 'dancer', cores, bytes: 4 * KiB }, 'pingpong:knem', 'pingpong:shm')).toBeGreaterThan(1);
    }
    for (const cores of [SAME_SOCKET, CROSS_SOCKET]) {
      for (const single of ['pingpong:cma', 'pingpong:xpmem']) {
        expect(ratio({ machine: 'broadwell', cores, bytes: 1 * KiB }, single, 'pingpong:shm')).toBeGreaterThan(1);
      }
    }
  });

  it('across sockets the single copies overtake it above the crossover, while its messages are eager', () => {
    const r = { machine: 'broadwell', cores: CROSS_SOCKET, bytes: 64 * KiB };
    expect(ratio(r, 'pingpong:cma', 'pingpong:shm')).toBeLessThan(1);
    expect(ratio(r, 'pingpong:xpmem', 'pingpong:shm')).toBeLessThan(1);
  });

  /** Smallest power-of-two size from 1 KiB up where `single` beats the double copy. */
  function crossover(machine: string, cores: number[], single: string): number {
    for (let bytes = 1 * KiB; bytes <= 256 * KiB; bytes *= 2) {
      if (ratio({ machine, cores, bytes, iterations: 1 }, single, 'pingpong:shm') < 1) return bytes;
    }
    return Infinity;
  }

  it('the crossover moves with the placement and with the machine', () => {
    // Cores sharing a cache keep the double copy ahead longer than cores that share none: its
    // cells stay in that cache, so only the user buffers miss (docs/shapes.md, shape 1).
    const near = crossover('dancer', [0, 1], 'pingpong:knem');
    const far = crossover('dancer', [0, 4], 'pingpong:knem');
    expect(far).toBeLessThan(Infinity);
    expect(near).toBeGreaterThan(far);
    // Zoot: cores 0 and 1 share an L2, cores 0 and 2 sit on one socket without sharing a cache.
    const zootFar = crossover('zoot', [0, 2], 'pingpong:knem');
    expect(zootFar).toBeLessThan(Infinity);
    expect(crossover('zoot', [0, 1], 'pingpong:knem')).toBeGreaterThan(zootFar);
    // On Broadwell CMA is ahead in both placements from 8 KiB, and its lead is smaller between
    // cores that share the L3 at every size from there to the eager limit. At 4 KiB both are within
    // a few percent of even: the double copy hides its fastbox check behind its copy-in, which
    // saves it a line's trip across the sockets but next to nothing within the L3.
    const cma = (cores: number[], bytes: number) =>
      ratio({ machine: 'broadwell', cores, bytes, iterations: 1 }, 'pingpong:cma', 'pingpong:shm');
    expect(crossover('broadwell', SAME_SOCKET, 'pingpong:cma')).toBeLessThanOrEqual(8 * KiB);
    expect(crossover('broadwell', CROSS_SOCKET, 'pingpong:cma')).toBeLessThanOrEqual(8 * KiB);
    for (const bytes of [8 * KiB, 16 * KiB, 32 * KiB])
      expect(cma(SAME_SOCKET, bytes)).toBeGreaterThan(cma(CROSS_SOCKET, bytes));
    const broadwell = crossover('broadwell', CROSS_SOCKET, 'pingpong:xpmem');
    expect(broadwell).toBeLessThan(Infinity);
    expect(crossover('epyc-genoa', [0, 96], 'pingpong:xpmem')).not.toBe(broadwell);
  });
});

describe('ping-ping: both ranks send at once', () => {
  const r = { machine: 'dancer', cores: [0, 4], bytes: 1 * MiB };
  const slowdown = (transport: string) =>
    time({ ...r, algorithm: `pingping:${transport}` }) / time({ ...r, algorithm: `pingpong:${transport}` });

  it("the double copy's per-process time grows far more over ping-pong's than KNEM's", () => {
    const shm = slowdown('shm');
    expect(shm).toBeGreaterThan(1.5);
    expect(slowdown('knem')).toBeLessThan(shm);
  });

  it('each KNEM copy runs as fast under ping-ping as alone in ping-pong, but for the memories cold caches share', () => {
    // Warm buffers: nothing of one copy's path serves the other's.
    const warm = { ...r, cache: 'on' as const };
    const alone = kernelCopies({ ...warm, algorithm: 'pingpong:knem' });
    const together = kernelCopies({ ...warm, algorithm: 'pingping:knem' });
    expect(Math.abs(alone.get(0)! / alone.get(1)! - 1)).toBeLessThan(1e-3);
    for (const rank of [0, 1]) expect(Math.abs(together.get(rank)! / alone.get(rank)! - 1)).toBeLessThan(1e-3);
    // IMB's -off_cache: each copy reads the other socket's memory and writes back, to its own, the
    // lines its writes push out of a cache full of earlier calls' writes. Under ping-ping each
    // memory then serves one copy's reads and the other's write-backs at once: the copies take
    // what that traffic takes at the memory's bandwidth, or their time alone if that is longer.
    const coldAlone = kernelCopies({ ...r, algorithm: 'pingpong:knem' });
    const coldTogether = kernelCopies({ ...r, algorithm: 'pingping:knem' });
    const memory = loadPreset('dancer').numaNodes[0];
    const shared = (r.bytes * (1 + (memory.writeCost ?? 1))) / memory.bandwidth;
    for (const rank of [0, 1]) {
      const expected = Math.max(coldAlone.get(rank)!, shared);
      expect(Math.abs(coldTogether.get(rank)! / expected - 1)).toBeLessThan(1e-3);
    }
  });

  it("the single copies' per-process time is ping-pong's, the double copy's nearly doubles", () => {
    const r = { machine: 'broadwell', cores: CROSS_SOCKET, bytes: 1 * MiB };
    const slowdown = (t: string) =>
      time({ ...r, algorithm: `pingping:${t}` }) / time({ ...r, algorithm: `pingpong:${t}` });
    for (const single of ['cma', 'xpmem']) expect(Math.abs(slowdown(single) - 1)).toBeLessThan(0.01);
    expect(slowdown('shm')).toBeGreaterThan(1.5);
  });

  it('under ping-ping the single copies beat the double copy at large sizes', () => {
    const r = { machine: 'broadwell', cores: CROSS_SOCKET, bytes: 1 * MiB };
    expect(ratio(r, 'pingping:xpmem', 'pingping:shm')).toBeLessThan(1);
    expect(ratio(r, 'pingping:cma', 'pingping:shm')).toBeLessThan(1);
    expect(ratio({ machine: 'dancer', cores: [0, 4], bytes: 1 * MiB }, 'pingping:knem', 'pingping:shm')).toBeLessThan(
      1,
    );
  });
});

describe('CMA one-to-all', () => {
  it("the share of time spent waiting on the root's address-space lock grows with the readers", () => {
    const waits = [2, 4, 8].map((n) => {
      const out = run({
        machine: 'broadwell',
        cores: Array.from({ length: n }, (_, i) => i),
        algorithm: 'onetoall:cma',
        bytes: 64 * KiB,
        iterations: 1,
      });
      return share(out.totals, ['lock-wait']);
    });
    expect(waits[0]).toBe(0);
    expect(waits[1]).toBeGreaterThan(waits[0]);
    expect(waits[2]).toBeGreaterThan(waits[1]);
  });
});

describe('XPMEM registration cache', () => {
  const REGISTER = ['xpmem-get', 'xpmem-attach', 'xpmem-detach'];
  const r = { machine: 'broadwell', cores: CROSS_SOCKET, algorithm: 'pingpong:xpmem' };

  it('without it a small message spends more time registering than copying; with it repeated transfers only copy', () => {
    const off = run({ ...r, bytes: 64, params: { regcache: false } });
    const on = run({ ...r, bytes: 64, params: { regcache: true } });
    expect(share(off.totals, REGISTER)).toBeGreaterThan(share(off.totals, ['copy']));
    // Measured iterations follow a warm-up that filled the cache: no registration step remains.
    expect(share(on.totals, REGISTER)).toBe(0);
    expect(on.times[0]).toBeLessThan(off.times[0]);
  });

  it("registration's share shrinks as the message grows, since its cost does not depend on the size", () => {
    const registering = (bytes: number) => share(run({ ...r, bytes, params: { regcache: false } }).totals, REGISTER);
    expect(registering(64)).toBeGreaterThan(registering(4 * KiB));
    expect(registering(4 * KiB)).toBeGreaterThan(registering(64 * KiB));
  });
});

describe('KNEM copy offload to I/OAT', () => {
  // Whether it pays off on an older front-side-bus platform (Zoot) is reproduction claim
  // 004-ioat-older-platform.
  it('does not pay off on Westmere, whose cores copy faster than the DMA engine', () => {
    const offload = ratio(
      { machine: 'westmere', cores: [0, 8], bytes: 1 * MiB },
      'pingpong:knem-ioat',
      'pingpong:knem',
    );
    expect(offload).toBeGreaterThan(1);
  });
});

describe('KNEM copy strategies', () => {
  it('the receiver reading is never slower than the sender writing', () => {
    // Seed 000 Fig. 1: receiver-reading is "little better" than sender-writing. How close seed
    // 004's Fig. 11 found the four strategies is claims 004-f11-*.
    const r = { machine: 'westmere', cores: [0, 6], bytes: 1 * MiB };
    expect(ratio(r, 'knemcopy:inline-read', 'knemcopy:inline-write')).toBeLessThanOrEqual(1);
    expect(ratio(r, 'knemcopy:region-read', 'knemcopy:region-write')).toBeLessThanOrEqual(1);
  });
});
