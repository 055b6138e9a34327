// Which core each rank runs on. Rank i runs on the i-th core of the returned list (OS indices).
import type { CoreSpec, MachineSpec } from '../hardware/spec.ts';
import { threadName, type HardwareThread, type PlacementSpec } from './scenario.ts';
import { seededStream, shuffled } from './seeded.ts';

export class PlacementError extends Error {
  override name = 'PlacementError';
  /** Position in an explicit core list that is at fault, when one is. */
  constructor(
    message: string,
    readonly index?: number,
  ) {
    super(message);
  }
}

/** Cores in OS-index order, package by package: ranks fill one package before the next. */
export function compactOrder(machine: MachineSpec): number[] {
  return [...machine.cores].sort((a, b) => a.package - b.package || a.id - b.id).map((c) => c.id);
}

/** One core from each NUMA node in turn (nodes by id, cores by OS index within a node). */
export function scatterOrder(machine: MachineSpec): number[] {
  const byNode = new Map<number, CoreSpec[]>();
  for (const core of [...machine.cores].sort((a, b) => a.numa - b.numa || a.id - b.id)) {
    const list = byNode.get(core.numa) ?? [];
    list.push(core);
    byNode.set(core.numa, list);
  }
  const queues = [...byNode.values()];
  const order: number[] = [];
  for (let i = 0; order.length < machine.cores.length; i++) {
    for (const q of queues) if (i < q.length) order.push(q[i].id);
  }
  return order;
}

/**
 * Every core of the machine in an order drawn from `seed`. Ranks take a prefix, so a sweep over
 * rank counts adds ranks to the cores already chosen rather than drawing afresh.
 */
export function randomOrder(machine: MachineSpec, seed: string): number[] {
  return shuffled(compactOrder(machine), seededStream(seed, 'placement'));
}

/** `seed` matters only to `random`. Rank i runs on the i-th core returned (cores may repeat with SMT). */
export function placeRanks(...args: Parameters<typeof placeThreads>): number[] {
  return placeThreads(...args).map((t) => t.core);
}

/**
 * Rank i runs on the i-th hardware thread returned. Without `smt`, named placements use each
 * core's first thread only; with it, every thread: `compact` fills a core's threads before the next
 * core, `scatter` gives every core (in scatter order) one rank before any gets a second, `random`
 * shuffles all threads.
 */
export function placeThreads(
  machine: MachineSpec,
  ranks: number,
  placement: PlacementSpec,
  seed = '',
  smt = false,
): HardwareThread[] {
  if (typeof placement === 'string') {
    const order = namedOrder(machine, placement, seed, smt);
    if (ranks > order.length) {
      const room = smt ? `${order.length} hardware threads` : `${order.length} cores`;
      throw new PlacementError(`${ranks} ranks do not fit on machine '${machine.name}', which has ${room}`);
    }
    return order.slice(0, ranks);
  }
  const cores = new Map(machine.cores.map((c) => [c.id, c]));
  const seen = new Set<string>();
  const threads = placement.map((entry, i) => {
    const t = typeof entry === 'number' ? { core: entry, thread: 0 } : entry;
    const core = cores.get(t.core);
    if (!core) {
      throw new PlacementError(
        `machine '${machine.name}' has no core ${t.core} (cores: ${describeIds([...cores.keys()])})`,
        i,
      );
    }
    if (t.thread >= core.threads) {
      throw new PlacementError(
        `core ${t.core} of machine '${machine.name}' has ${core.threads} hardware thread${core.threads === 1 ? '' : 's'} (0..${core.threads - 1}), not thread ${t.thread}`,
        i,
      );
    }
    const key = threadName(t);
    if (seen.has(key))
      throw new PlacementError(
        typeof entry === 'number' ? `core ${t.core} is listed twice` : `hardware thread ${key} is listed twice`,
        i,
      );
    seen.add(key);
    return t;
  });
  if (placement.length < ranks) {
    throw new PlacementError(`the core list names ${placement.length} cores but the scenario runs ${ranks} ranks`);
  }
  return threads.slice(0, ranks);
}

function namedOrder(
  machine: MachineSpec,
  placement: 'compact' | 'scatter' | 'random',
  seed: string,
  smt: boolean,
): HardwareThread[] {
  const threadsOf = new Map(machine.cores.map((c) => [c.id, smt ? c.threads : 1]));
  const firstThreads = (cores: number[]) => cores.map((core) => ({ core, thread: 0 }));
  if (placement === 'compact') {
    return compactOrder(machine).flatMap((core) =>
      Array.from({ length: threadsOf.get(core)! }, (_, thread) => ({ core, thread })),
    );
  }
  if (placement === 'scatter') {
    const cores = scatterOrder(machine);
    const order: HardwareThread[] = [];
    for (let thread = 0; thread < Math.max(...threadsOf.values()); thread++)
      for (const core of cores) if (thread < threadsOf.get(core)!) order.push({ core, thread });
    return order;
  }
  if (!smt) return firstThreads(randomOrder(machine, seed));
  return shuffled(namedOrder(machine, 'compact', seed, true), seededStream(seed, 'placement'));
}

/** "0-7" or "0-3, 8-11": short enough for an error message. */
export function describeIds(ids: number[]): string {
  const sorted = [...ids].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++;
    parts.push(i === j ? `${sorted[i]}` : `${sorted[i]}-${sorted[j]}`);
    i = j + 1;
  }
  return parts.join(', ');
}
