// Which points each shard of a sweep runs: every point exactly once across the N shards.
import { describe, expect, it } from 'vitest';
import { shardIndices } from '../../scenarios/shard/select.ts';

describe('shardIndices', () => {
  it('gives shard I the points whose index is I-1 modulo N', () => {
    expect(shardIndices(7, { index: 1, count: 3 })).toEqual([0, 3, 6]);
    expect(shardIndices(7, { index: 3, count: 3 })).toEqual([2, 5]);
  });

  it('splits any sweep into disjoint shards that cover it, some empty when N exceeds the points', () => {
    for (const total of [0, 1, 5, 12]) {
      for (const count of [1, 2, 5, 13]) {
        const all = Array.from({ length: count }, (_, i) => shardIndices(total, { index: i + 1, count })).flat();
        expect(all.sort((a, b) => a - b)).toEqual(Array.from({ length: total }, (_, i) => i));
      }
    }
    expect(shardIndices(2, { index: 3, count: 3 })).toEqual([]);
  });
});
