// Variants of one machine as persistent `immutable` structures: each variant is the base machine
// with some leaves set, sharing every subtree it does not change, so a thousand variants of a large
// machine cost memory in proportion to what they change. A variant becomes the plain MachineSpec
// the simulator reads through `toSpec`, which reuses the plain object of every subtree the variant
// shares with the base or with an earlier variant (frozen, since several specs hold it).
import { fromJS, isImmutable, List, type Map as ImmutableMap } from 'immutable';
import type { MachineSpec } from '../spec.ts';
import type { ParameterValue } from './parameters.ts';
import type { PathStep } from './parameter-path.ts';

/** One leaf to set: its steps from the spec's root (resolvePath gives them) and its new value. */
export interface LeafChange {
  steps: readonly PathStep[];
  value: ParameterValue;
}

/** A list cut to its first `keep` entries (the what-if form's fewer memory controllers). */
export interface ListCut {
  steps: readonly PathStep[];
  keep: number;
}

export type MachineChange = LeafChange | ListCut;

export type MachineTree = ImmutableMap<string, unknown>;

/** Plain objects already built for an immutable subtree; weak, so dropped variants are collected. */
const plainOf = new WeakMap<object, unknown>();

export class MachineVariants {
  readonly base: MachineTree;

  constructor(spec: MachineSpec) {
    this.base = fromJS(spec);
  }

  /** The base machine with every change applied; untouched subtrees are the base's own. */
  variant(changes: readonly MachineChange[]): MachineTree {
    return this.base.withMutations((tree) => {
      for (const c of changes) {
        if ('keep' in c) tree.updateIn(c.steps, (list) => (list as List<unknown>).setSize(c.keep));
        else tree.setIn(c.steps, c.value);
      }
    });
  }
}

/** The plain MachineSpec of a variant, sharing the plain form of every shared subtree. */
export function toSpec(tree: MachineTree): MachineSpec {
  return toPlain(tree) as MachineSpec;
}

function toPlain(value: unknown): unknown {
  if (!isImmutable(value)) return value;
  const collection = value;
  const known = plainOf.get(collection);
  if (known !== undefined) return known;
  let plain: unknown;
  if (List.isList(collection)) plain = Object.freeze(collection.toArray().map(toPlain));
  else {
    const obj: Record<string, unknown> = {};
    for (const [k, v] of (collection as ImmutableMap<string, unknown>).entries()) obj[k] = toPlain(v);
    plain = Object.freeze(obj);
  }
  plainOf.set(collection, plain);
  return plain;
}
