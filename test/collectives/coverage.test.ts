// Property coverage is automatic: every catalogued collective algorithm is in exactly one property
// shard, every point-to-point benchmark in the benchmarks test, every test hint names a parameter
// the algorithm declares; and a catalogue with one more algorithm gets it property-tested with no
// other edit (the claim of docs/extending.md), which fails when that algorithm is wrong.
import { describe, expect, it } from 'vitest';
import { defineAlgorithm } from '../../algorithms/algorithm.ts';
import { buildCatalogue } from '../../algorithms/build-catalogue.ts';
import { catalogue, catalogueParts } from '../../algorithms/catalogue.ts';
import { collectiveNames } from '../../algorithms/collectives/ops.ts';
import type { BcastArgs } from '../../algorithms/collectives/args.ts';
import type { Program, Rank } from '../../sim/node/rank-api.ts';
import { checkAlgorithmProperty, propertyPlans, shardOf } from './driver.ts';
import { SHARDS } from './property-shards.ts';
import { p2pBenchmarkOperations } from '../p2p/run.ts';

describe('property coverage', () => {
  const plans = propertyPlans();

  it('puts every catalogued collective algorithm in exactly one shard', () => {
    const collectives = catalogue
      .listAlgorithms()
      .filter((a) => collectiveNames.has(a.operation))
      .map((a) => a.name);
    expect(collectives.length).toBeGreaterThan(80);
    const seen = new Map<string, number>();
    for (let k = 0; k < SHARDS; k++) {
      for (const name of new Set(shardOf(plans, k, SHARDS).map((p) => p.algorithm)))
        seen.set(name, (seen.get(name) ?? 0) + 1);
    }
    for (const name of collectives) expect(seen.get(name), name).toBe(1);
  });

  it('runs every other operation in the point-to-point benchmarks test', () => {
    const others = catalogue
      .listOperations()
      .map((o) => o.name)
      .filter((name) => !collectiveNames.has(name));
    expect(p2pBenchmarkOperations()).toEqual(others);
  });

  it('test hints name only declared parameters, and every plan has machines to draw from', () => {
    for (const info of catalogue.listAlgorithms()) {
      for (const name of Object.keys(info.test?.params ?? {}))
        expect(
          info.params.map((p) => p.name),
          `${info.name} draws ${name}`,
        ).toContain(name);
    }
    expect(plans.every((p) => (p.opts.machines ?? []).length > 0)).toBe(true);
  });
});

// A linear broadcast over point-to-point, written as a contributor would add one.
function* linear(rank: Rank, { buffer, root }: BcastArgs): Program<void> {
  if (rank.id !== root) return yield* rank.p2p.recv(root, buffer, 99);
  for (let r = 0; r < rank.size; r++) if (r !== root) yield* rank.p2p.send(r, buffer, 99);
}

// The same, but forgetting the root's last peer.
function* forgetful(rank: Rank, { buffer, root }: BcastArgs): Program<void> {
  if (rank.id !== root) {
    if (rank.id !== rank.size - 1 || root === rank.size - 1) yield* rank.p2p.recv(root, buffer, 99);
    return;
  }
  for (let r = 0; r < rank.size - 1; r++) if (r !== root) yield* rank.p2p.send(r, buffer, 99);
}

function withExtra(name: string, program: (rank: Rank, args: BcastArgs) => Program<void>) {
  const extra = defineAlgorithm({
    name,
    operation: 'bcast',
    description: 'an extra broadcast',
    params: [],
    program,
    test: { numRuns: 10 },
  });
  return buildCatalogue({ ...catalogueParts, algorithms: [...catalogueParts.algorithms, extra] });
}

describe('a new algorithm is property-tested with no other edit', () => {
  it('one more definition in the catalogue is one more planned property, which passes when the algorithm is right', () => {
    const extended = withExtra('bcast:extra', linear);
    const plans = propertyPlans(extended).filter((p) => p.algorithm === 'bcast:extra');
    expect(plans).toHaveLength(1);
    for (const plan of plans) checkAlgorithmProperty(plan.algorithm, plan.opts);
  });

  it('and fails when it is wrong', () => {
    const extended = withExtra('bcast:forgetful', forgetful);
    const [plan] = propertyPlans(extended).filter((p) => p.algorithm === 'bcast:forgetful');
    expect(() => checkAlgorithmProperty(plan.algorithm, { ...plan.opts, seed: 1 })).toThrow(/Property failed/);
  });
});
