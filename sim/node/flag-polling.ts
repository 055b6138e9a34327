// A flag one core writes and several cores poll ("segment k ready", "fragment here"): what its
// cache line costs the writer and how long after the write each poller sees it.
//
// While the pollers spin, each holds the line shared. The writer's store must first invalidate
// every copy and wait for the last acknowledgement: the invalidations go out together, so the store
// waits for the farthest poller. Each poller's next read then misses, and the line's owner (the
// writer's cache, or the home's directory forwarding to it) serves these requests one at a time,
// the nearest requests arriving first: the k-th poller served sees the flag after the line transfers
// of all those served before it and its own. Handing one line to k waiting cores thus takes time
// linear in k (Boyd-Wickizer, Kaashoek, Morris & Zeldovich, "Non-scalable locks are dangerous",
// Linux Symposium 2012, §3: a line's requests are served one at a time, so the cost of a hand-off
// grows with the number of cores re-reading it; David, Guerraoui & Trigonakis, "Everything you
// always wanted to know about synchronization but were afraid to ask", SOSP 2013, §4: on the
// 48-core Opteron a store to a line shared by many cores pays the farthest sharer's invalidation).
// With one poller, the write costs one line transfer and the poller sees it one transfer later,
// exactly what a control message between the two cores costs.

export interface FlagCosts {
  /** What the writer's store waits for: the invalidation of the farthest poller's copy (ns). */
  write: number;
  /** Per poller, in the order given, how long after the write it sees the new value (ns). */
  seen: number[];
}

/**
 * `line(a, b)` is the time to move a line between cores a and b (the cache they share, else memory
 * latency across the links between their sockets). Pollers equally far are served in the order
 * given, so the result is deterministic.
 */
export function flagPollingCosts(
  line: (a: number, b: number) => number,
  writer: number,
  pollers: readonly number[],
): FlagCosts {
  const distance = pollers.map((p) => line(writer, p));
  for (const d of distance)
    if (!(d >= 0) || !Number.isFinite(d)) throw new RangeError(`flag polling: line transfer of ${d} ns`);
  const order = pollers.map((_, i) => i).sort((a, b) => distance[a] - distance[b] || a - b);
  const seen = new Array<number>(pollers.length);
  let served = 0;
  for (const i of order) {
    served += distance[i];
    seen[i] = served;
  }
  return { write: Math.max(0, ...distance), seen };
}
