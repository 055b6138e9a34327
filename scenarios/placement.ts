// Which core each rank runs on. Rank i runs on the i-th core of the returned list (OS indices).
import type { CoreSpec, MachineSpec } from '../hardware/spec.ts';
import type { PlacementSpec } from './scenario.ts';
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

/** `seed` matters only to `random`. */
export function placeRanks(machine: MachineSpec, ranks: number, placement: PlacementSpec, seed = ''): number[] {
  const total = machine.cores.length;
  if (typeof placement === 'string') {
    if (ranks > total) {
      throw new PlacementError(`${ranks} ranks do not fit on machine '${machine.name}', which has ${total} cores`);
    }
    const order =
      placement === 'compact'
        ? compactOrder(machine)
        : placement === 'scatter'
          ? scatterOrder(machine)
          : randomOrder(machine, seed);
    return order.slice(0, ranks);
  }
  const known = new Set(machine.cores.map((c) => c.id));
  const seen = new Set<number>();
  placement.forEach((core, i) => {
    if (!known.has(core)) {
      throw new PlacementError(`machine '${machine.name}' has no core ${core} (cores: ${describeIds([...known])})`, i);
    }
    if (seen.has(core)) throw new PlacementError(`core ${core} is listed twice`, i);
    seen.add(core);
  });
  if (placement.length < ranks) {
    throw new PlacementError(`the core list names ${placement.length} cores but the scenario runs ${ranks} ranks`);
  }
  return placement.slice(0, ranks);
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
