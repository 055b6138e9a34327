// The flows whose rates a change can move, and only those. Max-min fair rates couple two flows only
// through a saturated resource they share: a flow's rate is fixed by its bottleneck, a saturated
// resource on which no flow runs faster, and a resource with capacity to spare bounds nobody. So
// when flows start or finish, the part to re-solve is the new flows, and the flows of every saturated
// resource a finished flow left, closed over the saturated resources those flows cross. The resources
// with spare capacity that they cross may also carry flows outside the part, whose rates stay as
// they are; the part is solved on what those leave free (network.ts).
//
// That is exact as long as the solve leaves every such resource with spare capacity: the flows
// outside keep their bottlenecks, which no flow of the part crosses, and every flow of the part gets
// one inside it. When the solve does saturate one, its flows outside may now run faster than a flow
// of the part bounded there, so the caller adds them (`widen`) and solves again. Which resources are
// saturated is read from their loads at the last re-solve (less the share of each flow finished
// since, which is why the resources a finished flow leaves saturated are passed in: the change frees
// capacity on them).
//
// A walk allocates nothing once its lists have grown: its lists of flows and of resources are
// reused by the next walk (a caller that keeps a part's flows copies them). Flows and resources
// carry visit stamps, not sets.

import type { FlowState } from './flow.ts';
import type { ResourceState } from './resource.ts';
import { stateRules } from '../../common/state-fingerprint.ts';

/**
 * A resource loaded to within this fraction of its capacity counts as saturated. Wider than the
 * solver's own tolerance (maxmin.ts, SATURATION_REL_EPS), so that no resource the solver saturated
 * is taken for one with room; taking one with a little room for saturated only widens the part.
 */
const SATURATED_REL = 1e-6;

export function saturated(r: ResourceState, load = r.load): boolean {
  return load >= r.capacity * (1 - SATURATED_REL);
}

export interface Component {
  readonly flows: FlowState[];
  /** Every resource the flows cross, each once. */
  readonly resources: ResourceState[];
}

export class ComponentWalker {
  private stamp = 0;
  private readonly stack: FlowState[] = [];
  private readonly resources: ResourceState[] = [];
  private readonly flows: FlowState[] = [];

  /**
   * The part around `flows` (started, or to be re-solved again) and `freed` (saturated resources a
   * flow left): those flows, the flows of `freed`, and what the saturated resources of all of them
   * reach. The returned lists are valid until the next call.
   */
  collect(flows: readonly FlowState[], freed: readonly ResourceState[]): Component {
    const stamp = ++this.stamp;
    this.flows.length = 0;
    for (const f of flows) if (f.phase === 'active') this.addFlow(f, stamp);
    for (const r of freed) this.addAll(r, stamp);
    return this.close(stamp);
  }

  /** After a solve that saturated `saturatedNow`, resources of the part that carry flows outside it:
   *  those flows join, with what the saturated resources they cross reach. The same lists, grown. */
  widen(saturatedNow: readonly ResourceState[]): Component {
    for (const r of saturatedNow) this.addAll(r, this.stamp);
    return this.close(this.stamp);
  }

  private addFlow(f: FlowState, stamp: number): void {
    if (f.visit === stamp) return;
    f.visit = stamp;
    this.flows.push(f);
    this.stack.push(f);
  }

  /** Every flow of `r` joins the part (a saturated resource: their rates move together). */
  private addAll(r: ResourceState, stamp: number): void {
    if (r.visit === stamp) return;
    r.visit = stamp;
    for (const f of r.flows) this.addFlow(f, stamp);
  }

  /** Follows the saturated resources of the flows added, then lists every resource they cross. */
  private close(stamp: number): Component {
    const stack = this.stack;
    while (stack.length > 0) {
      const f = stack.pop()!;
      for (const r of f.resources) if (r.visit !== stamp && saturated(r)) this.addAll(r, stamp);
    }
    // `local` is the solver's index of a resource, never negative; here a negative stamp marks one
    // listed in this pass, so each is listed once.
    const resources = this.resources;
    resources.length = 0;
    const listed = -stamp;
    for (const f of this.flows) {
      for (const r of f.resources) {
        if (r.local === listed) continue;
        r.local = listed;
        resources.push(r);
      }
    }
    return { flows: this.flows, resources };
  }
}

// Stamps are compared only for equality with the walk's own, newer stamp; the lists are emptied
// by every walk before it fills them.
stateRules(ComponentWalker, { stamp: 'ignore', stack: 'ignore', resources: 'ignore', flows: 'ignore' });
