// How many warm-up calls a run makes. A cache-off run starts with the caches full of dirty lines
// written before it (Node.fillCachesWithEarlierWrites), and its first call writes back all it
// brings in, not only what it writes; behind a victim cache, which receives a call's last evictions
// as its copies end and writes them back during the next call, the second call still pays part of
// that. So such a run warms up for at least those calls, whatever a scenario asks; the harness
// runs them and the reports say how many it ran.
import type { MachineSpec } from '../../hardware/spec.ts';
import { hasVictimCache } from '../../sim/node/topology.ts';

/** The fewest warm-up calls a cache-off run makes on `machine`. */
function coldWarmupCalls(machine: MachineSpec): number {
  return hasVictimCache(machine.caches) ? 2 : 1;
}

/** Warm-up calls a run with `warmup` asked makes on `machine`. */
export function warmupCallsMade(cache: 'on' | 'off', warmup: number, machine: MachineSpec): number {
  return cache === 'off' ? Math.max(warmup, coldWarmupCalls(machine)) : warmup;
}

/** The warm-up calls made where they are more than `warmup` asked, for the reports to say so. */
export function warmupBeyondAsked(cache: 'on' | 'off', warmup: number, machine: MachineSpec): number | undefined {
  const made = warmupCallsMade(cache, warmup, machine);
  return made === warmup ? undefined : made;
}
