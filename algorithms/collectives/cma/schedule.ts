// Who reads from (or writes to) whom, and when, in the CMA collectives.
//
// One-to-all and all-to-one CMA transfers queue on the single process's page-table lock (Hashmi
// et al., seed 001: "CMA based reads suffer from process-level lock-contention inside the kernel",
// over 90% of a one-to-all read). The linear designs (Ma et al. 2010, seed 000, §IV) let every rank
// at it at once; the staggered ones bound how many do:
// - waves: the root admits `concurrency` ranks, waits until they are done, admits the next ones;
// - a k-nomial tree (k = concurrency + 1) for broadcast, where every rank that already holds the
//   data serves up to `concurrency` readers per round, so the data spreads in ceil(log_k N) rounds.

/** `items` cut into consecutive groups of `size` (the last one shorter). */
export function waves<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export interface ServingTree {
  /** Rank this rank reads from (undefined for the root). */
  parent(rank: number): number | undefined;
  /** Readers this rank serves, round by round (at most `concurrency` per round). */
  rounds(rank: number): number[][];
}

/**
 * The k-nomial tree of `size` ranks rooted at `root`, k = concurrency + 1, on ranks relative to the
 * root (v = (rank - root) mod size). Round j: every v < k^j already holds the data and serves
 * v + d k^j for d = 1..k-1. A concurrency of at least size - 1 gives the linear design: the root
 * serves everyone in one round.
 */
export function servingTree(size: number, root: number, concurrency: number): ServingTree {
  const k = Math.min(concurrency, Math.max(size - 1, 1)) + 1;
  const rel = (rank: number) => (rank - root + size) % size;
  const abs = (v: number) => (v + root) % size;
  /** Smallest j with k^j > v: the round after the one v received in. */
  const firstRound = (v: number) => {
    let j = 0;
    for (let mask = 1; mask <= v; mask *= k) j++;
    return j;
  };
  return {
    parent(rank) {
      const v = rel(rank);
      if (v === 0) return undefined;
      let mask = 1;
      while (mask * k <= v) mask *= k;
      return abs(v % mask);
    },
    rounds(rank) {
      const v = rel(rank);
      const out: number[][] = [];
      let mask = 1;
      for (let j = 0; j < firstRound(v); j++) mask *= k;
      for (; mask < size; mask *= k) {
        const readers: number[] = [];
        for (let d = 1; d < k && v + d * mask < size; d++) readers.push(abs(v + d * mask));
        if (readers.length > 0) out.push(readers);
      }
      return out;
    },
  };
}
