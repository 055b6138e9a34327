// The coll_base algorithms that are the generic segmented bcast or reduce on one tree shape: each
// is its tree, its `segsize` parameter and a description. A default segment size of 0 (the whole
// message at once) makes segmenting optional, and the property tests draw 0 among the sizes.
import type { Rank } from '../../../sim/node/rank-api.ts';
import { defineAlgorithm, type Defined, type ParamInfo } from '../../algorithm.ts';
import { intParam } from '../params.ts';
import { bcastOnTree } from './bcast-generic.ts';
import { reduceOnTree } from './reduce-generic.ts';
import type { Tree } from './trees.ts';

export interface OnTree {
  /** The algorithm's name within its operation ("binomial"). */
  name: string;
  description: string;
  segsize: { default: number; description: string };
  tree: (rank: number, root: number, size: number) => Tree;
}

function segsizeParam({ segsize }: OnTree): ParamInfo {
  return { name: 'segsize', kind: 'bytes', default: segsize.default, min: segsize.default === 0 ? 0 : 1, description: segsize.description };
}

/** Segment sizes around the sizes the tests draw often (tuned/index.ts). */
function segsizeDraw({ segsize }: OnTree): readonly number[] {
  return segsize.default === 0 ? [0, 100, 1024, 4096] : [100, 1000, 1024, 4096];
}

export function bcastOn(def: OnTree): Defined<'bcast'> {
  const param = segsizeParam(def);
  const name = `bcast:${def.name}`;
  return defineAlgorithm({
    name,
    operation: 'bcast',
    description: def.description,
    params: [param],
    test: { params: { segsize: { values: segsizeDraw(def) } } },
    program: (rank: Rank, args) => bcastOnTree(rank, args.buffer, def.tree(rank.id, args.root, rank.size), intParam(args.params, param, name)),
  });
}

export function reduceOn(def: OnTree): Defined<'reduce'> {
  const param = segsizeParam(def);
  const name = `reduce:${def.name}`;
  return defineAlgorithm({
    name,
    operation: 'reduce',
    description: def.description,
    params: [param],
    test: { params: { segsize: { values: segsizeDraw(def) } } },
    program: (rank: Rank, args) => reduceOnTree(rank, args, def.tree(rank.id, args.root, rank.size), intParam(args.params, param, name)),
  });
}
