// The progressive filling as it was written before the solver kept its arrays and a heap of levels:
// every round rescans every resource still filling. Kept as the reference the faster solver must
// match bit for bit (same rates, same bottlenecks), since reordering the arithmetic would move
// simulated times in their last bits.

import { REMAINDER_RESUM_SHARE, SATURATION_REL_EPS, unfrozenWeightOf, type CsrFlows } from '../../sim/flow/maxmin.ts';

export function scanMaxMinCsr(capacity: ArrayLike<number>, g: CsrFlows, bottleneck: Int32Array): Float64Array {
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
  const totalWeight = unfrozenWeight.slice();

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
      if (unfrozenUses[r] > 0 && unfrozenWeight[r] <= totalWeight[r] * REMAINDER_RESUM_SHARE)
        unfrozenWeight[r] = unfrozenWeightOf(r, g, resStart, resFlow, frozen);
      if (unfrozenUses[r] > 0) active[kept++] = r;
    }
    activeCount = kept;
  }
  return rate;
}
