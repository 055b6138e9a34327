import { describe, expect, it } from 'vitest';
import { Simulation } from '../../sim/engine/simulation.ts';
import type { Program } from '../../sim/engine/program.ts';
import { RwLock } from '../../sim/engine/rw-lock.ts';

type Mode = 'shared' | 'exclusive';

/** Spawns holders that arrive at `at`, hold for `hold` ns, and records [name, start, end]. */
function run(requests: { name: string; mode: Mode; at: number; hold: number }[]) {
  const sim = new Simulation();
  const lock = new RwLock(sim, 'mmap_lock');
  const log: [string, number, number][] = [];
  for (const r of requests) {
    sim.spawn(r.name, (function* (): Program<void> {
      yield* sim.sleep(r.at);
      yield* r.mode === 'shared' ? lock.lockShared() : lock.lockExclusive();
      const start = sim.now;
      yield* sim.sleep(r.hold);
      if (r.mode === 'shared') lock.unlockShared();
      else lock.unlockExclusive();
      log.push([r.name, start, sim.now]);
    })());
  }
  sim.run();
  return { log, lock };
}

describe('RwLock', () => {
  it('lets readers in together', () => {
    const { log, lock } = run([
      { name: 'r1', mode: 'shared', at: 0, hold: 10 },
      { name: 'r2', mode: 'shared', at: 1, hold: 10 },
    ]);
    expect(log).toEqual([
      ['r1', 0, 10],
      ['r2', 1, 11],
    ]);
    expect(lock.totalWaitNs).toBe(0);
    expect(lock.activeReaders).toBe(0);
    expect(lock.writeLocked).toBe(false);
  });

  it('a queued writer blocks the readers behind it (FIFO, no writer starvation)', () => {
    const { log, lock } = run([
      { name: 'r1', mode: 'shared', at: 0, hold: 10 },
      { name: 'w', mode: 'exclusive', at: 1, hold: 5 },
      { name: 'r2', mode: 'shared', at: 2, hold: 3 },
      { name: 'r3', mode: 'shared', at: 3, hold: 3 },
    ]);
    expect(log).toEqual([
      ['r1', 0, 10],
      ['w', 10, 15],
      ['r2', 15, 18],
      ['r3', 15, 18],
    ]);
    // w waited 9, r2 waited 13, r3 waited 12.
    expect(lock.totalWaitNs).toBe(34);
  });

  it('writers take turns in arrival order', () => {
    const { log } = run([
      { name: 'w1', mode: 'exclusive', at: 0, hold: 4 },
      { name: 'w2', mode: 'exclusive', at: 1, hold: 4 },
      { name: 'r', mode: 'shared', at: 2, hold: 1 },
      { name: 'w3', mode: 'exclusive', at: 3, hold: 4 },
    ]);
    expect(log).toEqual([
      ['w1', 0, 4],
      ['w2', 4, 8],
      ['r', 8, 9],
      ['w3', 9, 13],
    ]);
  });

  it('serves a long queue in order', () => {
    const requests = Array.from({ length: 200 }, (_, i) => ({ name: `w${i}`, mode: 'exclusive' as const, at: 0, hold: 1 }));
    const { log } = run(requests);
    expect(log.map(([name]) => name)).toEqual(requests.map((r) => r.name));
    expect(log.at(-1)).toEqual(['w199', 199, 200]);
  });

  it('unlocking what is not held throws and names the lock', () => {
    const lock = new RwLock(new Simulation(), 'mmap_lock');
    expect(() => lock.unlockShared()).toThrow('shared unlock of "mmap_lock"');
    expect(() => lock.unlockExclusive()).toThrow('exclusive unlock of "mmap_lock"');
  });
});
