// The connected component of the flow graph around a change: resources and flows linked through
// shared resources, transitively. Only this part's rates can move when a flow starts or finishes,
// because max-min fair rates of disjoint components are independent.

import type { FlowState } from './flow.ts';
import type { ResourceState } from './resource.ts';
import { stateRules } from '../../common/state-fingerprint.ts';

export interface Component {
  readonly flows: FlowState[];
  readonly resources: ResourceState[];
}

/**
 * Walks components with visit stamps instead of sets. A walk allocates only its list of flows
 * (which the caller may keep, as a wakeup's list); its list of resources is reused by the next walk.
 */
export class ComponentWalker {
  private stamp = 0;
  private readonly stack: ResourceState[] = [];
  private readonly resources: ResourceState[] = [];

  /** Everything reachable from `seeds` through the resources' current flow lists. The returned
   *  `resources` is valid until the next call. */
  collect(seeds: readonly ResourceState[]): Component {
    const stamp = ++this.stamp;
    const flows: FlowState[] = [];
    const resources = this.resources;
    resources.length = 0;
    const stack = this.stack;
    for (const r of seeds) {
      if (r.visit !== stamp) {
        r.visit = stamp;
        stack.push(r);
      }
    }
    while (stack.length > 0) {
      const r = stack.pop()!;
      resources.push(r);
      for (const f of r.flows) {
        if (f.visit === stamp) continue;
        f.visit = stamp;
        flows.push(f);
        for (const r2 of f.resources) {
          if (r2.visit !== stamp) {
            r2.visit = stamp;
            stack.push(r2);
          }
        }
      }
    }
    return { flows, resources };
  }
}

// Stamps are compared only for equality with the walk's own, newer stamp; the lists are emptied
// by every walk before it fills them.
stateRules(ComponentWalker, { stamp: 'ignore', stack: 'ignore', resources: 'ignore' });
