// Whether the first two cores share their outermost cache, decided by the line they pass between
// them. A virtual machine's topology can give each virtual CPU a last-level cache of its own
// although the host's cores behind them share one: on the development host hwloc lists one L3 per
// virtual CPU, and a line passes between the two in about 27 ns when they sit on cores that share
// an L3 (within a factor 1.5 of a load from it) and in about 220 ns when they do not, the host
// moving them from time to time. The model carries a line between cores through the cache they
// share, else at their NUMA node's trip where the machine gives one (fitted from the same
// measurement when this decides they share nothing: fit/constants.ts), else through memory
// (sim/node/topology.ts, lineLatency), and the double copy's every flag, queue cell and ring line
// takes that trip: the measured trip (the training's fastest round), set against a load from their
// outermost cache and the trip through memory, decides which of the two the machine file
// describes. Only the two cores measured are judged: on a larger machine listed the same way, the
// other cores keep the detected topology.
import { Topology } from '../../sim/node/topology.ts';
import type { MachineSpec } from '../../hardware/spec.ts';
import { cachesOfCore, type TrainingData } from '../training.ts';
import { fmt, type FittedValue } from './constants.ts';

/**
 * When the detected topology gives the first two cores no shared cache and their measured line
 * trip is nearer, as a ratio, to a load from their outermost cache than to the trip through memory
 * the model would give them, makes their two outermost caches one cache of both (keeping the first
 * core's, whose size and constants the training measured), renumbers the training data's cache
 * indices to match, and says what it decided and from what. Undefined where nothing is decided:
 * fewer than two cores, no line trip measured, a cache already shared, or no outermost cache.
 */
export function shareOuterCache(spec: MachineSpec, data: TrainingData): FittedValue | undefined {
  const run = data.lines;
  if (!run || run.cores.length < 2) return undefined;
  const [a, b] = run.cores;
  if (new Topology(spec).sharedCache(a, b) !== undefined) return undefined;
  const mine = cachesOfCore(spec, a).at(-1);
  const theirs = cachesOfCore(spec, b).at(-1);
  const probe = data.levels.findIndex((l) => l.cacheIndex === mine?.i);
  if (!mine || !theirs || mine.c.level !== theirs.c.level || probe < 0) return undefined;
  const trip = run.results[0].medianNs;
  const load = data.latency[probe].minNs;
  const memoryLoad = data.latency[data.latency.length - 1].minNs;
  // The trip the detected topology gives, with memory's latency as measured.
  const apart = structuredClone(spec);
  for (const n of apart.numaNodes) {
    n.latencyNs = memoryLoad;
    delete n.peerLatencyNs;
  }
  const throughMemory = new Topology(apart).lineLatency(a, b);
  const ratio = (x: number, y: number) => Math.max(x, y) / Math.min(x, y);
  const shared = ratio(trip, load) < ratio(trip, throughMemory);
  const level = mine.c.level;
  const field = `caches[${mine.c.id}].cores`;
  const measured = `measured: one cache line passed back and forth between cores ${a} and ${b}, ${fmt(trip)} per one-way trip, against ${fmt(load)} for a load from L${level} and ${fmt(throughMemory)} for the trip through memory the detected topology (an L${level} for each core) gives`;
  if (!shared) {
    return {
      field,
      value: 'as detected',
      source: `${measured}: nearer the trip through memory, so the cores share no cache, as detected`,
      kept: true,
    };
  }
  const removed = joinOuterCaches(spec, a, b)!;
  const renumber = (i: number) => (i > removed ? i - 1 : i);
  for (const l of data.levels) if (l.cacheIndex !== undefined) l.cacheIndex = renumber(l.cacheIndex);
  if (data.capacity) data.capacity.cacheIndex = renumber(data.capacity.cacheIndex);
  return {
    field,
    value: `one L${level} for cores ${mine.c.cores.join(', ')}`,
    source: `${measured}: nearer the load from L${level}, so the two cores share it (their L${level}s are one cache)`,
  };
}

/**
 * Makes the outermost caches of cores `a` and `b`, apart in `spec`, one cache of both: `a`'s (its
 * size and constants) with `b`'s cores added, `b`'s taken out of the list. The import marks its
 * default values by cache index (caches[i].bandwidth): the removed cache's marks go with it, the
 * others follow their caches. Returns the index the removed cache had; undefined, changing
 * nothing, where the two already share a cache or have no outermost caches of one level.
 */
export function joinOuterCaches(spec: MachineSpec, a: number, b: number): number | undefined {
  if (new Topology(spec).sharedCache(a, b) !== undefined) return undefined;
  const mine = cachesOfCore(spec, a).at(-1);
  const theirs = cachesOfCore(spec, b).at(-1);
  if (!mine || !theirs || mine.c.level !== theirs.c.level) return undefined;
  mine.c.cores = [...new Set([...mine.c.cores, ...theirs.c.cores])].sort((x, y) => x - y);
  spec.caches.splice(theirs.i, 1);
  const renumber = (i: number) => (i > theirs.i ? i - 1 : i);
  spec.guessed = spec.guessed.flatMap((g) => {
    const m = /^caches\[(\d+)\](.*)$/.exec(g);
    if (!m) return [g];
    const i = Number(m[1]);
    return i === theirs.i ? [] : [`caches[${renumber(i)}]${m[2]}`];
  });
  return theirs.i;
}

/**
 * The inverse where `a` and `b` share their outermost cache: `b` gets a cache of its own, a copy of
 * the shared one (same size and constants, the one cache fitted standing for both, less the peer
 * latency, which a cache of one core has no use for), appended to the
 * list so that no index moves, and the shared one keeps its other cores. False, changing nothing,
 * where they share no outermost cache.
 */
export function splitOuterCache(spec: MachineSpec, a: number, b: number): boolean {
  const shared = cachesOfCore(spec, a).at(-1);
  if (!shared || !shared.c.cores.includes(b) || cachesOfCore(spec, b).at(-1)?.c !== shared.c) return false;
  const ids = new Set(spec.caches.map((c) => c.id));
  let id = `${shared.c.id}-core${b}`;
  for (let k = 2; ids.has(id); k++) id = `${shared.c.id}-core${b}-${k}`;
  shared.c.cores = shared.c.cores.filter((c) => c !== b);
  const own = { ...structuredClone(shared.c), id, cores: [b] };
  // A line passes between cores through a cache they share: one cache of one core has no such trip.
  delete own.peerLatencyNs;
  if (shared.c.cores.length === 1) delete shared.c.peerLatencyNs;
  spec.caches.push(own);
  return true;
}
