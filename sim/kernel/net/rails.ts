// How a message between hosts is split across rails (the NICs of each host), per process, as an MPI
// library's multiplexing layer does it (Open MPI's BML: one chunk per BTL, sized by its weight):
//   even       : the same share on every rail;
//   throughput : shares proportional to each NIC's advertised wire bandwidth (Open MPI's default,
//                which ignores where the process runs);
//   numa       : shares proportional to the throughput each rail offers this process from where
//                its memory is (Moreaud, Goglin & Namyst 2010, the NUIOA-aware split);
//   nearest    : only the rails whose NIC is on the process's own NUMA node, evenly; a process near
//                none splits evenly (the seed's best all-to-all tuning, where contention matters);
//   share      : `railShare` of the message on the first rail, the rest evenly on the others.
import type { NicDma } from '../../node/nic-dma.ts';

export const RAIL_POLICIES = ['even', 'throughput', 'numa', 'nearest', 'share'] as const;
export type RailPolicy = (typeof RAIL_POLICIES)[number];

export interface RailOptions {
  policy: RailPolicy;
  /** With policy 'share': share of each message on the first rail, from 0 to 1. */
  share: number;
}

/** One weight per rail, summing to 1, for a process on `numa` of `host`. */
export function railWeights(dma: NicDma, host: number, numa: number, opts: RailOptions): number[] {
  const rails = dma.rails(host);
  const n = rails.length;
  if (n === 0) throw new Error(`host ${host} has no NIC`);
  const raw =
    opts.policy === 'even'
      ? rails.map(() => 1)
      : opts.policy === 'throughput'
        ? rails.map((nic) => nic.bandwidth)
        : opts.policy === 'numa'
          ? rails.map((_, k) => dma.monoRailThroughput(host, k, numa))
          : opts.policy === 'nearest'
            ? nearest(dma, host, numa, n)
            : n === 1
              ? [1]
              : rails.map((_, k) => (k === 0 ? opts.share : (1 - opts.share) / (n - 1)));
  const total = raw.reduce((a, b) => a + b, 0);
  return raw.map((w) => w / total);
}

function nearest(dma: NicDma, host: number, numa: number, n: number): number[] {
  const near = Array.from({ length: n }, (_, k) => (dma.nearRail(host, k, numa) ? 1 : 0));
  return near.some((w) => w > 0) ? near : near.map(() => 1);
}

/**
 * Splits `bytes` into one chunk per rail by `weights`: chunk k ends at round(bytes x the weights of
 * rails 0..k), so chunks are whole bytes, sum to `bytes`, and a zero weight gives an empty chunk.
 */
export function splitAcrossRails(bytes: number, weights: readonly number[]): number[] {
  const chunks: number[] = [];
  let cumulative = 0;
  let previous = 0;
  weights.forEach((w, k) => {
    cumulative += w;
    const end = k === weights.length - 1 ? bytes : Math.min(bytes, Math.round(bytes * cumulative));
    chunks.push(end - previous);
    previous = end;
  });
  return chunks;
}
