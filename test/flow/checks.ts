// Independent checks of a max-min fair allocation, shared by the solver and network suites.
//
// Weighted analogue of the bottleneck condition: a flow of weight w consumes w times its rate on a
// resource, but fairness is over rates. An allocation is max-min fair exactly when it is feasible
// (sum of weight*rate <= capacity everywhere) and every flow crosses some saturated resource on
// which no other flow has a higher rate: raising that flow would need to take capacity from a flow
// whose rate is no larger, whatever the weights. This characterisation fixes the allocation
// uniquely, so it checks the solver without re-running progressive filling.

export interface Problem {
  capacities: number[];
  flows: { uses: { resource: number; weight: number }[] }[];
}

const REL = 1e-7;

export function loads(p: Problem, rates: readonly number[]): number[] {
  const load = p.capacities.map(() => 0);
  p.flows.forEach((f, i) => {
    for (const u of f.uses) load[u.resource] += u.weight * rates[i];
  });
  return load;
}

/** Returns a description of the first violation, or undefined when the allocation is max-min fair. */
export function maxMinViolation(p: Problem, rates: readonly number[]): string | undefined {
  const load = loads(p, rates);
  for (let r = 0; r < p.capacities.length; r++) {
    if (load[r] > p.capacities[r] * (1 + REL)) return `resource ${r} carries ${load[r]} > capacity ${p.capacities[r]}`;
  }
  const maxRateOn = p.capacities.map(() => 0);
  p.flows.forEach((f, i) => {
    for (const u of f.uses) maxRateOn[u.resource] = Math.max(maxRateOn[u.resource], rates[i]);
  });
  for (let i = 0; i < p.flows.length; i++) {
    if (!(rates[i] > 0)) return `flow ${i} has rate ${rates[i]}`;
    const hasBottleneck = p.flows[i].uses.some(
      (u) => load[u.resource] >= p.capacities[u.resource] * (1 - REL) && rates[i] >= maxRateOn[u.resource] * (1 - REL),
    );
    if (!hasBottleneck) return `flow ${i} (rate ${rates[i]}) has no bottleneck resource`;
  }
  return undefined;
}

export function closeTo(a: number, b: number, rel = REL): boolean {
  return Math.abs(a - b) <= rel * Math.max(Math.abs(a), Math.abs(b), 1e-12);
}

/**
 * Checks that `bottlenecks[i]` certifies flow i's rate: the flow crosses it, it is saturated, and
 * no flow crossing it runs faster. Returns the first violation, or undefined.
 */
export function bottleneckViolation(
  p: Problem,
  rates: readonly number[],
  bottlenecks: readonly number[],
): string | undefined {
  const load = loads(p, rates);
  for (let i = 0; i < p.flows.length; i++) {
    const b = bottlenecks[i];
    if (!p.flows[i].uses.some((u) => u.resource === b)) return `flow ${i} names resource ${b}, which it does not cross`;
    if (load[b] < p.capacities[b] * (1 - REL))
      return `flow ${i} names resource ${b}, which carries ${load[b]} < capacity ${p.capacities[b]}`;
    for (let j = 0; j < p.flows.length; j++) {
      if (p.flows[j].uses.some((u) => u.resource === b) && rates[j] > rates[i] * (1 + REL)) {
        return `flow ${i} (rate ${rates[i]}) names resource ${b}, where flow ${j} runs faster (${rates[j]})`;
      }
    }
  }
  return undefined;
}
