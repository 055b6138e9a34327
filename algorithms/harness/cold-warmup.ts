// How many warm-up calls a cache-off run makes at least. Such a run starts with the caches full of
// dirty lines written before it (Node.fillCachesWithEarlierWrites), and its first call writes back
// all it brings in, not only what it writes; behind a victim cache, which receives a call's last
// evictions as its copies end and writes them back during the next call, the second call still
// pays part of that. The harness runs these calls whatever a scenario's warm-up, and the reports
// say how many it ran.
import type { MachineSpec } from '../../hardware/spec.ts';

export function coldWarmupCalls(machine: MachineSpec): number {
  return machine.caches.some((c) => c.victim) ? 2 : 1;
}
