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
// validation, used by the network on every incremental re-solve).

/**
 * Resources whose fill level is within this relative distance of the lowest one saturate together.
 * It absorbs the rounding of subtracting frozen loads from capacities; it is a numerical tolerance,
 * not a model constant.
 */
export const SATURATION_REL_EPS = 1e-9;

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
  const rates = solveMaxMinCsr(capacities, csr, bottleneck);
  return { rates: Array.from(rates), bottlenecks: Array.from(bottleneck) };
}

/**
 * The core solver. Inputs are trusted: positive finite capacities and weights, at least one use per
 * flow. A flow may list a resource twice; its weights there add up.
 *
 * `bottleneck` (length >= flowCount) holds on entry each flow's preferred resource (one it uses,
 * or -1 for none) and on return the resource whose saturation froze it.
 */
export function solveMaxMinCsr(capacity: ArrayLike<number>, g: CsrFlows, bottleneck: Int32Array): Float64Array {
  const nRes = capacity.length;
  const nFlows = g.flowCount;
  const { flowStart, useResource, useWeight } = g;
  const rate = new Float64Array(nFlows);
  if (nFlows === 0) return rate;

  // Reverse adjacency (resource -> flows), so that freezing costs O(uses) over the whole solve.
  const resStart = new Int32Array(nRes + 1);
  for (let k = 0; k < useResource.length; k++) resStart[useResource[k] + 1]++;
  for (let r = 0; r < nRes; r++) resStart[r + 1] += resStart[r];
  const resFlow = new Int32Array(useResource.length);
  const fill = resStart.slice(0, nRes);
  const unfrozenWeight = new Float64Array(nRes);
  const unfrozenUses = new Int32Array(nRes);
  for (let f = 0; f < nFlows; f++) {
    for (let k = flowStart[f]; k < flowStart[f + 1]; k++) {
      const r = useResource[k];
      resFlow[fill[r]++] = f;
      unfrozenWeight[r] += useWeight[k];
      unfrozenUses[r]++;
    }
  }
  const frozenLoad = new Float64Array(nRes);
  const frozen = new Uint8Array(nFlows);

  // Resources that still carry an unfrozen flow, compacted as they drop out.
  const active = new Int32Array(nRes);
  let activeCount = 0;
  for (let r = 0; r < nRes; r++) if (unfrozenUses[r] > 0) active[activeCount++] = r;
  const levelAt = new Float64Array(nRes);

  let level = 0;
  let unfrozenCount = nFlows;
  while (unfrozenCount > 0) {
    let next = Infinity;
    for (let i = 0; i < activeCount; i++) {
      const r = active[i];
      const t = (capacity[r] - frozenLoad[r]) / unfrozenWeight[r];
      levelAt[r] = t;
      if (t < next) next = t;
    }
    if (next > level) level = next;
    const threshold = level * (1 + SATURATION_REL_EPS);
    for (let i = 0; i < activeCount; i++) {
      const r = active[i];
      if (levelAt[r] > threshold) continue;
      for (let j = resStart[r]; j < resStart[r + 1]; j++) {
        const f = resFlow[j];
        if (frozen[f]) continue;
        frozen[f] = 1;
        rate[f] = level;
        unfrozenCount--;
        for (let k = flowStart[f]; k < flowStart[f + 1]; k++) {
          const r2 = useResource[k];
          unfrozenWeight[r2] -= useWeight[k];
          frozenLoad[r2] += useWeight[k] * level;
          unfrozenUses[r2]--;
        }
        // The preferred resource is one of f's, all active at the start of this round (f was
        // unfrozen), so its levelAt is this round's: within the threshold, it saturates now too.
        const preferred = bottleneck[f];
        bottleneck[f] = preferred >= 0 && levelAt[preferred] <= threshold ? preferred : r;
      }
    }
    let kept = 0;
    for (let i = 0; i < activeCount; i++) {
      const r = active[i];
      if (unfrozenUses[r] > 0) active[kept++] = r;
    }
    activeCount = kept;
  }
  return rate;
}
