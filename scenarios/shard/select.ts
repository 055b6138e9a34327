// Which points of a sweep a shard runs. Point i (0-based, in the expanded order that runScenario
// follows) belongs to shard (i mod N) + 1, so shards are 1-based as SLURM array tasks usually are,
// every shard gets a spread of sizes and algorithms, and no two shards share a point.

export interface ShardSpec {
  /** 1-based: 1 ≤ index ≤ count. */
  index: number;
  count: number;
}

/** The indices, in increasing order, of the points of a `total`-point sweep that `shard` runs. */
export function shardIndices(total: number, shard: ShardSpec): number[] {
  const out: number[] = [];
  for (let i = shard.index - 1; i < total; i += shard.count) out.push(i);
  return out;
}
