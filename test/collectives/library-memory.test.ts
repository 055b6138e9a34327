// The memory the library allocates beyond the operation's own buffers (harness/simulate.ts,
// `libraryBytes`): what Table I of Ma et al. 2010 compares (scenarios/papers/000/claims.yaml).
import { describe, expect, it } from 'vitest';
import { runAlgorithm } from '../../algorithms/harness/simulate.ts';
import { loadPreset } from '../../hardware/presets.ts';
import { smBtlCosts } from '../../sim/kernel/shm/costs.ts';

const machine = loadPreset('dancer');
const libraryBytes = (
  algorithm: string,
  ranks: number,
  bytes: number,
  options: { shm?: string; iterations?: number; buffers?: 'fresh' } = {},
): number =>
  runAlgorithm({
    machine,
    cores: machine.cores.slice(0, ranks).map((c) => c.id),
    algorithm,
    call: { bytes, root: 0, params: options.shm ? { shm: options.shm } : {} },
    cache: 'on',
    iterations: options.iterations ?? 1,
    warmup: 0,
    seed: 'library-memory',
    ...(options.buffers ? { buffers: options.buffers } : {}),
  }).libraryBytes;

describe('the memory the library allocates', () => {
  it("leaves out the operation's own buffers, fresh or kept", () => {
    // The KNEM broadcast passes its cookie as a control message: the root's 1 MiB and the seven
    // receive buffers are the operation's, and nothing else is allocated.
    expect(libraryBytes('bcast:knem-linear', 8, 1 << 20)).toBe(0);
    expect(libraryBytes('bcast:knem-linear', 8, 1 << 20, { iterations: 3, buffers: 'fresh' })).toBe(0);
  });

  it("counts the KNEM alltoall's array of N 64-bit cookies in every process", () => {
    for (const n of [2, 4, 8]) expect(libraryBytes('alltoall:knem-linear', n, 4096)).toBe(8 * n * n);
  });

  it("counts the sm BTL's free lists as far as the first call grew them", () => {
    const eagerBlock = smBtlCosts.freeListInitial * smBtlCosts.eagerFragmentBytes;
    const maxBlock = smBtlCosts.freeListInitial * smBtlCosts.maxFragmentBytes;
    // An eager message: the root's first block of eager fragments.
    expect(libraryBytes('bcast:basic', 2, 1024, { shm: 'sm' })).toBe(eagerBlock);
    // A rendezvous: the root's eager and max fragments, and the receiver's eager ones for its ACK.
    expect(libraryBytes('bcast:basic', 2, 64 * 1024, { shm: 'sm' })).toBe(2 * eagerBlock + maxBlock);
  });

  it("counts a call's temporaries once, however many calls run (the first call's)", () => {
    const one = libraryBytes('reduce:basic', 4, 64 * 1024, { shm: 'sm' });
    expect(one).toBeGreaterThan(0);
    expect(libraryBytes('reduce:basic', 4, 64 * 1024, { shm: 'sm', iterations: 4 })).toBe(one);
  });
});
