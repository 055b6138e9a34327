// Two-level compositions: with any registered algorithm at each level, every rank's buffers end
// exactly as MPI requires (driver.ts) on machines of several NUMA nodes; the sub-communicator
// adapter maps ranks, keeps contexts apart and rejects what it cannot map.
import { describe, expect, it } from 'vitest';
import { runAlgorithm } from '../../algorithms/harness/simulate.ts';
import { catalogue } from '../../algorithms/catalogue.ts';
import { subRank } from '../../algorithms/collectives/two-level/sub-rank.ts';
import { numaGroups } from '../../algorithms/collectives/two-level/groups.ts';
import { Simulation } from '../../sim/engine/simulation.ts';
import { Node } from '../../sim/node/node.ts';
import { World } from '../../sim/node/world.ts';
import { SimRank } from '../../sim/kernel/rank.ts';
import type { Program, Rank } from '../../sim/node/rank-api.ts';
import { tinyMachine } from '../helpers/machines.ts';

// Several NUMA nodes of several cores, up to 64 ranks, every mechanism available.
const machines = [
  tinyMachine({ packages: 2, coresPerPackage: 2 }),
  tinyMachine({ packages: 4, coresPerPackage: 4 }),
  tinyMachine({ packages: 8, coresPerPackage: 8 }),
];

// Their data-correctness properties run with every catalogued algorithm's (properties.*.test.ts),
// any choice at every level, drawn as two-level/index.ts says.
describe('two-level compositions', () => {
  it('calls the mechanisms its levels call, and fails where the machine lacks one', () => {
    const twoLevel = catalogue.findAlgorithm('bcast:two-level')!;
    expect(twoLevel.mechanisms?.({ inter: 'basic', intra: 'basic' })).toEqual([]);
    expect(new Set(twoLevel.mechanisms?.({ inter: 'knem-linear', intra: 'xpmem' }))).toEqual(
      new Set(['knem', 'xpmem']),
    );
    const noXpmem = tinyMachine({ packages: 2, coresPerPackage: 2 });
    noXpmem.kernel.mechanisms.xpmem = false;
    const run = (intra: string) =>
      runAlgorithm({
        machine: noXpmem,
        cores: [0, 1, 2, 3],
        algorithm: 'bcast:two-level',
        call: { bytes: 4096, root: 0, params: { intra } },
        cache: 'off',
        iterations: 1,
        warmup: 0,
        seed: 'mechanisms',
      });
    expect(run('basic').times[0]).toBeGreaterThan(0);
    expect(() => run('xpmem')).toThrow(/no xpmem/);
  });

  it('bcast:two-level offers any catalogued broadcast at either level', () => {
    const bcasts = catalogue.findAlgorithm('bcast:two-level')!.params.find((p) => p.name === 'inter')!.choices!;
    expect(bcasts).toEqual(
      expect.arrayContaining(['basic', 'knem-linear', 'knem-hierarchical', 'cma-linear', 'cma-staggered', 'xpmem']),
    );
    expect(bcasts).not.toContain('two-level');
  });

  it('rejects an inner algorithm that is not registered, or itself', () => {
    const run = (params: Record<string, string>) => () =>
      runAlgorithm({
        machine: machines[0],
        cores: [0, 1, 2, 3],
        algorithm: 'bcast:two-level',
        call: { bytes: 64, root: 0, params },
        cache: 'off',
        iterations: 1,
        warmup: 0,
        seed: 's',
      });
    expect(run({ inter: 'binomal' })).toThrow(
      /params\.inter must name a bcast algorithm, one of .*basic.*; got "binomal"/,
    );
    expect(run({ intra: 'two-level' })).toThrow(/params\.intra must name a bcast algorithm/);
  });
});

describe('NUMA groups', () => {
  it('one leader per NUMA node, the root leading its own', () => {
    const numa = [1, 0, 1, 2, 0, 2, 1];
    const topo = {
      numaOf: (r: number) => numa[r],
      packageOf: () => 0,
      coreOf: (r: number) => r,
      shareCache: () => false,
      hops: () => 0,
    };
    const g = numaGroups(topo, numa.length, 6);
    expect(g.leaders).toEqual([1, 6, 3]);
    expect(g.groupOf(2)).toEqual([0, 2, 6]);
    expect(g.leaderOf(0)).toBe(6);
    expect(g.leaderOf(4)).toBe(1);
  });
});

describe('subRank', () => {
  /** Runs `body` on every world rank of a tiny machine, each with its SimRank. */
  const world = (n: number, body: (rank: Rank) => Program<void>) => {
    const sim = new Simulation({ seed: 'sub' });
    const node = new Node(sim, tinyMachine({ packages: 2, coresPerPackage: 4 }));
    const w = new World(
      node,
      Array.from({ length: n }, (_, i) => i),
    );
    const procs = Array.from({ length: n }, (_, id) => sim.spawn(`r${id}`, body(new SimRank(w, id))));
    sim.run();
    for (const p of procs) expect(p.done).toBe(true);
  };

  it('numbers ranks by position in the members and maps them back', () => {
    const seen: string[] = [];
    world(6, function* (rank) {
      const members = [4, 1, 5];
      if (!members.includes(rank.id)) return;
      const sub = subRank(rank, members, 1);
      expect(sub.size).toBe(3);
      expect(sub.id).toBe(members.indexOf(rank.id));
      expect(sub.topology.coreOf(sub.id)).toBe(rank.id);
      const all = yield* sub.control.allgather(rank.id);
      seen.push(all.join(','));
    });
    expect(seen).toEqual(['4,1,5', '4,1,5', '4,1,5']);
  });

  it('keeps the control messages of different contexts apart, whatever order they arrive in', () => {
    const got: unknown[] = [];
    world(2, function* (rank) {
      const a = subRank(rank, [0, 1], 1);
      const b = subRank(rank, [1, 0], 2);
      if (rank.id === 0) {
        yield* b.control.send(0, 'b1'); // world rank 1 is b's rank 0
        yield* a.control.send(1, 'a1');
        yield* b.control.send(0, 'b2');
        yield* a.control.send(1, 'a2');
      } else {
        got.push(
          yield* a.control.recv(0),
          yield* a.control.recv(0),
          yield* b.control.recv(1),
          yield* b.control.recv(1),
        );
      }
    });
    expect(got).toEqual(['a1', 'a2', 'b1', 'b2']);
  });

  it('rejects members it cannot map and ranks outside the sub-communicator', () => {
    world(3, function* (rank) {
      expect(() => subRank(rank, [0, 0, 1, 2], 1)).toThrow(/listed twice/);
      expect(() => subRank(rank, [0, 1, 2, 3], 1)).toThrow(/member 3/);
      expect(() => subRank(rank, [0, 1, 2], 64)).toThrow(/context/);
      if (rank.id === 2) expect(() => subRank(rank, [0, 1], 1)).toThrow(/not one of the members/);
      const sub = subRank(rank, [0, 1, 2], 1);
      expect(() => sub.topology.numaOf(3)).toThrow(/no rank 3/);
      yield* rank.sleep(0);
    });
  });
});
