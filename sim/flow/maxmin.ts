// Weighted max-min fair rates by progressive filling. Every unfrozen flow's rate rises at the same
// pace; a flow of weight w on a resource consumes w times its rate there. When a resource saturates,
// every flow crossing it freezes at the current level. The level never falls, so every rate is at
// least the first level, which is positive: no flow can stall while capacity is left.
//
// A flow freezes because a resource it crosses saturated; that resource is its bottleneck, and it is
// the max-min certificate: saturated, and no flow crossing it runs faster (those still rising freeze
// at the same level, those frozen before froze lower). When several of its resources saturate in the
// same round, the caller's preferred one (the bottleneck it had before this re-solve) is kept, so
// that exact ties do not flip the attribution from one re-solve to the next; otherwise the first of
// them in resource order.
//
// Two entry points share one core: `maxMinAllocation`/`maxMinRates` (plain arrays, validated, used
// by tests and callers that solve from scratch) and `solveMaxMinCsr` (compact arrays, no
// validation, used by the network on every incremental re-solve). The core works in a
// `MaxMinScratch` that the network keeps, so a re-solve in the steady state allocates nothing, and
// it finds each round's lowest level in a heap (level-heap.ts) that only the resources touched by
// the round's freezes move in; a resource a single flow crosses is part of that flow's cap.

import { LevelHeap } from './level-heap.ts';

/**
 * Resources whose fill level is within this relative distance of the lowest one saturate together.
 * It absorbs the rounding of subtracting frozen loads from capacities; it is a numerical tolerance,
 * not a model constant.
 */
export const SATURATION_REL_EPS = 1e-9;

/**
 * A resource's unfrozen weight is kept as a running difference (its total less each frozen flow's
 * weight), which keeps only about 2.2e-16 times the total of accuracy: where weights on one resource
 * span many orders of magnitude, the remainder can lose most of its bits, even round to zero or
 * below. Once it falls to this share of the total it is summed again from the unfrozen flows. Node
 * model weights never span that much, so in practice this never runs; it is a numerical guard.
 */
export const REMAINDER_RESUM_SHARE = 2 ** -20;

/** The weight the unfrozen flows put on resource `r`, summed afresh (see REMAINDER_RESUM_SHARE). */
export function unfrozenWeightOf(
  r: number,
  g: Pick<CsrFlows, 'flowStart' | 'useResource' | 'useWeight'>,
  resStart: ArrayLike<number>,
  resFlow: ArrayLike<number>,
  frozen: ArrayLike<number>,
): number {
  let sum = 0;
  for (let j = resStart[r]; j < resStart[r + 1]; j++) {
    const f = resFlow[j];
    if (frozen[f]) continue;
    // A flow crossing r twice appears twice in r's list: take each of its uses of r once per entry.
    const first = j === resStart[r] || resFlow[j - 1] !== f;
    if (!first) continue;
    for (let k = g.flowStart[f]; k < g.flowStart[f + 1]; k++) if (g.useResource[k] === r) sum += g.useWeight[k];
  }
  return sum;
}

/** A flow graph in compressed rows: flow f uses `useResource[k]` with `useWeight[k]` for k in
 *  `flowStart[f] .. flowStart[f+1]-1`. */
export interface CsrFlows {
  readonly flowCount: number;
  readonly flowStart: Int32Array;
  readonly useResource: Int32Array;
  readonly useWeight: Float64Array;
}

export interface MaxMinAllocation {
  rates: number[];
  /** Per flow, the resource whose saturation fixed its rate. */
  bottlenecks: number[];
}

export function maxMinRates(capacities: number[], flows: { uses: { resource: number; weight: number }[] }[]): number[] {
  return maxMinAllocation(capacities, flows).rates;
}

export function maxMinAllocation(
  capacities: number[],
  flows: { uses: { resource: number; weight: number }[] }[],
): MaxMinAllocation {
  capacities.forEach((c, r) => {
    if (!(c > 0) || !Number.isFinite(c)) {
      throw new RangeError(`maxMinRates: capacity of resource ${r} must be positive and finite, got ${c}`);
    }
  });
  let useCount = 0;
  flows.forEach((f, i) => {
    if (f.uses.length === 0) {
      throw new RangeError(`maxMinRates: flow ${i} uses no resource, so nothing bounds its rate`);
    }
    for (const u of f.uses) {
      if (!Number.isInteger(u.resource) || u.resource < 0 || u.resource >= capacities.length) {
        throw new RangeError(`maxMinRates: flow ${i} uses resource ${u.resource}, which does not exist`);
      }
      if (!(u.weight > 0) || !Number.isFinite(u.weight)) {
        throw new RangeError(`maxMinRates: flow ${i} has weight ${u.weight}; weights must be positive and finite`);
      }
    }
    useCount += f.uses.length;
  });
  const csr: CsrFlows = {
    flowCount: flows.length,
    flowStart: new Int32Array(flows.length + 1),
    useResource: new Int32Array(useCount),
    useWeight: new Float64Array(useCount),
  };
  let k = 0;
  flows.forEach((f, i) => {
    csr.flowStart[i] = k;
    for (const u of f.uses) {
      csr.useResource[k] = u.resource;
      csr.useWeight[k] = u.weight;
      k++;
    }
  });
  csr.flowStart[flows.length] = k;
  const bottleneck = new Int32Array(flows.length).fill(-1);
  const rates = solveMaxMinCsr(capacities, csr, bottleneck, new MaxMinScratch());
  return { rates: Array.from(rates.subarray(0, flows.length)), bottlenecks: Array.from(bottleneck) };
}

/**
 * The arrays a solve works in, kept between solves and grown (never shrunk) when a bigger
 * component comes: after the first few re-solves of a run, a re-solve allocates nothing. The
 * compressed-row input (`flowStart`, `useResource`, `useWeight`, `capacity`) lives here too, for
 * callers that build it per solve.
 */
export class MaxMinScratch {
  capacity = new Float64Array(16);
  flowStart = new Int32Array(17);
  useResource = new Int32Array(64);
  useWeight = new Float64Array(64);
  bottleneck = new Int32Array(16);
  rate = new Float64Array(16);
  frozen = new Uint8Array(16);
  resStart = new Int32Array(17);
  resFill = new Int32Array(16);
  resFlow = new Int32Array(64);
  unfrozenWeight = new Float64Array(16);
  /** Per resource, the weight of all its uses at the start (REMAINDER_RESUM_SHARE). */
  totalWeight = new Float64Array(16);
  unfrozenUses = new Int32Array(16);
  frozenLoad = new Float64Array(16);
  /** Per resource, its saturation level; then, at nRes + f, the level of flow f's cap (below). */
  levelAt = new Float64Array(32);
  /** Per resource: 1 when exactly one use in the solve crosses it (a cap on that flow alone). */
  alone = new Uint8Array(16);
  /** Per resource, the round that last touched it; rounds are numbered across solves. */
  touchedIn = new Int32Array(16);
  touched = new Int32Array(16);
  saturated = new Int32Array(16);
  round = 0;
  readonly heap = new LevelHeap();

  /** Room for `nRes` resources, `nFlows` flows and `nUses` uses, keeping nothing of earlier solves
   *  except the round numbering. */
  reserve(nRes: number, nFlows: number, nUses: number): void {
    if (this.capacity.length < nRes) {
      const n = Math.max(nRes, 2 * this.capacity.length);
      this.capacity = new Float64Array(n);
      this.resStart = new Int32Array(n + 1);
      this.resFill = new Int32Array(n);
      this.unfrozenWeight = new Float64Array(n);
      this.totalWeight = new Float64Array(n);
      this.unfrozenUses = new Int32Array(n);
      this.frozenLoad = new Float64Array(n);
      this.alone = new Uint8Array(n);
      this.touchedIn = new Int32Array(n);
      this.touched = new Int32Array(n);
      this.saturated = new Int32Array(n);
      this.round = 0;
    }
    if (this.levelAt.length < nRes + nFlows) this.levelAt = new Float64Array(2 * (nRes + nFlows));
    if (this.rate.length < nFlows) {
      const n = Math.max(nFlows, 2 * this.rate.length);
      this.flowStart = new Int32Array(n + 1);
      this.bottleneck = new Int32Array(n);
      this.rate = new Float64Array(n);
      this.frozen = new Uint8Array(n);
    }
    if (this.useResource.length < nUses) {
      const n = Math.max(nUses, 2 * this.useResource.length);
      this.useResource = new Int32Array(n);
      this.useWeight = new Float64Array(n);
      this.resFlow = new Int32Array(n);
    }
  }
}

/**
 * The core solver. Inputs are trusted: positive finite capacities and weights, at least one use per
 * flow. A flow may list a resource twice; its weights there add up. The arrays of `g` and
 * `capacity` may be longer than needed: only the first `flowCount` flows, their uses, and the
 * resources they name are read.
 *
 * `bottleneck` (length >= flowCount) holds on entry each flow's preferred resource (one it uses,
 * or -1 for none) and on return the resource whose saturation froze it. The rates are returned in
 * `scratch.rate` (its first `flowCount` entries), valid until the next solve with that scratch.
 */
export function solveMaxMinCsr(
  capacity: ArrayLike<number>,
  g: CsrFlows,
  bottleneck: Int32Array,
  scratch: MaxMinScratch,
): Float64Array {
  if (g.flowCount === 1 && listsEachResourceOnce(g.useResource, g.flowStart[1])) {
    scratch.reserve(g.flowStart[1], 1, g.flowStart[1]);
    return solveAlone(capacity, g, bottleneck, scratch);
  }
  return solveMaxMinGeneral(capacity, g, bottleneck, scratch);
}

/** `solveMaxMinCsr` without its shortcut for one flow (exported for the test that compares them). */
export function solveMaxMinGeneral(
  capacity: ArrayLike<number>,
  g: CsrFlows,
  bottleneck: Int32Array,
  scratch: MaxMinScratch,
): Float64Array {
  const nFlows = g.flowCount;
  const { flowStart, useResource, useWeight } = g;
  const nUses = flowStart[nFlows];
  let nRes = 0;
  for (let k = 0; k < nUses; k++) if (useResource[k] >= nRes) nRes = useResource[k] + 1;
  scratch.reserve(nRes, nFlows, nUses);
  const rate = scratch.rate;
  if (nFlows === 0) return rate;
  const { resStart, resFlow, unfrozenWeight, unfrozenUses, frozenLoad, frozen, levelAt, touchedIn } = scratch;
  const { touched, saturated, heap } = scratch;

  // Reverse adjacency (resource -> flows), so that freezing costs O(uses) over the whole solve.
  resStart.fill(0, 0, nRes + 1);
  unfrozenWeight.fill(0, 0, nRes);
  unfrozenUses.fill(0, 0, nRes);
  frozenLoad.fill(0, 0, nRes);
  frozen.fill(0, 0, nFlows);
  for (let k = 0; k < nUses; k++) resStart[useResource[k] + 1]++;
  for (let r = 0; r < nRes; r++) resStart[r + 1] += resStart[r];
  const fill = scratch.resFill;
  fill.set(resStart.subarray(0, nRes));
  for (let f = 0; f < nFlows; f++) {
    for (let k = flowStart[f]; k < flowStart[f + 1]; k++) {
      const r = useResource[k];
      resFlow[fill[r]++] = f;
      unfrozenWeight[r] += useWeight[k];
      unfrozenUses[r]++;
    }
  }

  // Resources that still carry an unfrozen flow, lowest saturation level first. A resource's level
  // changes only when a flow crossing it freezes, so only those are re-keyed after a round; the
  // others keep the level they had, computed from the same state. A resource only one use crosses
  // (a core's own queues and caches, in most solves) bounds that flow alone and its level never
  // changes: such resources enter the heap as one cap per flow, the lowest of them (at nRes + f),
  // and freezing the flow moves no other entry.
  const alone = scratch.alone;
  heap.reset(nRes + nFlows, levelAt);
  const totalWeight = scratch.totalWeight;
  totalWeight.set(unfrozenWeight.subarray(0, nRes));
  for (let r = 0; r < nRes; r++) {
    alone[r] = unfrozenUses[r] === 1 ? 1 : 0;
    if (unfrozenUses[r] === 0) continue;
    levelAt[r] = (capacity[r] - frozenLoad[r]) / unfrozenWeight[r];
    if (alone[r] === 0) heap.push(r);
  }
  for (let f = 0; f < nFlows; f++) {
    // A level may overflow to Infinity (a tiny weight): the cap still enters the heap, as each of
    // its resources did, so that a flow crossing nothing else is frozen (at Infinity, which the
    // network rejects) rather than left unfrozen for ever.
    let cap = Infinity;
    let lone = false;
    for (let k = flowStart[f]; k < flowStart[f + 1]; k++) {
      const r = useResource[k];
      if (alone[r] !== 1) continue;
      lone = true;
      if (levelAt[r] < cap) cap = levelAt[r];
    }
    if (lone) {
      levelAt[nRes + f] = cap;
      heap.push(nRes + f);
    }
  }

  let level = 0;
  let unfrozenCount = nFlows;
  while (unfrozenCount > 0) {
    const next = levelAt[heap.top()];
    if (next > level) level = next;
    const threshold = level * (1 + SATURATION_REL_EPS);
    // Every resource within the threshold saturates this round. They are handled in resource
    // order, as a scan over all resources would: that order decides which one a flow crossing
    // several is attributed to, and in which order frozen loads are summed. A cap stands for the
    // first of its flow's lone resources within the threshold.
    let nSat = 0;
    while (heap.size > 0 && levelAt[heap.top()] <= threshold) {
      const top = heap.pop();
      if (top < nRes) {
        saturated[nSat++] = top;
        continue;
      }
      const f = top - nRes;
      let first = nRes;
      for (let k = flowStart[f]; k < flowStart[f + 1]; k++) {
        const r = useResource[k];
        if (alone[r] === 1 && levelAt[r] <= threshold && r < first) first = r;
      }
      saturated[nSat++] = first;
    }
    sortAscending(saturated, nSat);
    if (scratch.round === 0x3fffffff) {
      touchedIn.fill(0);
      scratch.round = 0;
    }
    const round = ++scratch.round;
    let nTouched = 0;
    for (let i = 0; i < nSat; i++) {
      const r = saturated[i];
      for (let j = resStart[r]; j < resStart[r + 1]; j++) {
        const f = resFlow[j];
        if (frozen[f]) continue;
        frozen[f] = 1;
        rate[f] = level;
        unfrozenCount--;
        heap.remove(nRes + f);
        for (let k = flowStart[f]; k < flowStart[f + 1]; k++) {
          const r2 = useResource[k];
          frozenLoad[r2] += useWeight[k] * level;
          if (alone[r2] === 1) continue;
          unfrozenWeight[r2] -= useWeight[k];
          unfrozenUses[r2]--;
          if (touchedIn[r2] !== round) {
            touchedIn[r2] = round;
            touched[nTouched++] = r2;
          }
        }
        // The preferred resource is one of f's, all still filling at the start of this round (f
        // was unfrozen), and levels are re-keyed only after the round: within the threshold, it
        // saturates now too.
        const preferred = bottleneck[f];
        bottleneck[f] = preferred >= 0 && levelAt[preferred] <= threshold ? preferred : r;
      }
    }
    for (let i = 0; i < nTouched; i++) {
      const r = touched[i];
      if (unfrozenUses[r] === 0) {
        heap.remove(r);
      } else {
        if (unfrozenWeight[r] <= totalWeight[r] * REMAINDER_RESUM_SHARE)
          unfrozenWeight[r] = unfrozenWeightOf(r, g, resStart, resFlow, frozen);
        levelAt[r] = (capacity[r] - frozenLoad[r]) / unfrozenWeight[r];
        heap.update(r);
      }
    }
  }
  return rate;
}

/** Whether the uses name resources 0, 1, ..., n-1 in that order: each once, as the network lists
 *  a part of one flow (its resources in the flow's order). */
function listsEachResourceOnce(useResource: Int32Array, n: number): boolean {
  for (let k = 0; k < n; k++) if (useResource[k] !== k) return false;
  return true;
}

/**
 * The solve of one flow whose uses name each resource once (resource k is use k): what the general
 * solve computes in that case, operation for operation, without its adjacency and heap. Every
 * resource is one use's alone, so the flow's rate is its lowest level, capacity over weight; it is
 * attributed to its preferred resource if that saturates within the threshold, else to the first
 * that does. A part of one flow is a copy starting or ending with nothing else on the saturated
 * resources it crosses: most re-solves of runs of small messages (tuned's 48-rank broadcast on IG
 * at 1 MiB, 8 KiB segments, re-solves 1.3 flows on average).
 */
function solveAlone(
  capacity: ArrayLike<number>,
  g: CsrFlows,
  bottleneck: Int32Array,
  scratch: MaxMinScratch,
): Float64Array {
  const n = g.flowStart[1];
  const { useWeight } = g;
  const { levelAt, frozenLoad, rate } = scratch;
  let cap = Infinity;
  for (let r = 0; r < n; r++) {
    // (capacity - frozenLoad) / unfrozenWeight, with nothing frozen yet and this use's weight alone.
    levelAt[r] = capacity[r] / useWeight[r];
    if (levelAt[r] < cap) cap = levelAt[r];
  }
  const level = cap > 0 ? cap : 0;
  const threshold = level * (1 + SATURATION_REL_EPS);
  let first = n;
  for (let r = 0; r < n; r++) {
    if (levelAt[r] <= threshold) {
      first = r;
      break;
    }
  }
  for (let r = 0; r < n; r++) frozenLoad[r] = useWeight[r] * level;
  rate[0] = level;
  const preferred = bottleneck[0];
  bottleneck[0] = preferred >= 0 && levelAt[preferred] <= threshold ? preferred : first;
  return rate;
}

/** Insertion sort of a[0..n-1]: a round saturates a handful of resources at most. */
function sortAscending(a: Int32Array, n: number): void {
  for (let i = 1; i < n; i++) {
    const v = a[i];
    let j = i - 1;
    while (j >= 0 && a[j] > v) {
      a[j + 1] = a[j];
      j--;
    }
    a[j + 1] = v;
  }
}
