// The coll_base algorithms that are the generic segmented bcast or reduce on one tree shape: each
// is its tree, its `segsize` parameter and a description. A default segment size of 0 (the whole
// message at once) makes segmenting optional, and the property tests draw 0 among the sizes.
import type { Program, Rank } from '../../../sim/node/rank-api.ts';
import type { ArgsOf } from '../../operations.ts';
import { defineAlgorithm, type Defined, type ParamInfo, type ParamValue } from '../../algorithm.ts';
import type { ParamDraw } from '../../property-hints.ts';
import { intParam } from '../params.ts';
import { bcastOnTree } from './bcast-generic.ts';
import { reduceOnTree } from './reduce-generic.ts';
import type { Tree } from './trees.ts';

export interface OnTree {
  /** The algorithm's name within its operation ("binomial"). */
  name: string;
  description: string;
  segsize: { default: number; description: string };
  /** The tree, given the algorithm's parameters (those of `shape`, if it has any). */
  tree: (rank: number, root: number, size: number, params: Record<string, ParamValue>) => Tree;
  /** Parameters of the tree's shape besides the segment size, with the values the tests draw. */
  shape?: { param: ParamInfo; draw: ParamDraw }[];
}

function segsizeParam({ segsize }: OnTree): ParamInfo {
  return {
    name: 'segsize',
    kind: 'bytes',
    default: segsize.default,
    min: segsize.default === 0 ? 0 : 1,
    description: segsize.description,
  };
}

/** Segment sizes around the sizes the tests draw often (tuned/index.ts). */
function segsizeDraw({ segsize }: OnTree): readonly number[] {
  return segsize.default === 0 ? [0, 100, 1024, 4096] : [100, 1000, 1024, 4096];
}

function onTree<Op extends 'bcast' | 'reduce'>(
  operation: Op,
  def: OnTree,
  run: (rank: Rank, args: ArgsOf<Op>, tree: Tree, segsize: number) => Program<void>,
): Defined<Op> {
  const param = segsizeParam(def);
  const name = `${operation}:${def.name}`;
  return defineAlgorithm({
    name,
    operation,
    description: def.description,
    params: [param, ...(def.shape ?? []).map((s) => s.param)],
    test: {
      params: {
        segsize: { values: segsizeDraw(def) },
        ...Object.fromEntries((def.shape ?? []).map((s) => [s.param.name, s.draw])),
      },
    },
    program: (rank, args) =>
      run(rank, args, def.tree(rank.id, args.root, rank.size, args.params), intParam(args.params, param, name)),
  });
}

export const bcastOn = (def: OnTree): Defined<'bcast'> =>
  onTree('bcast', def, (rank, args, tree, segsize) => bcastOnTree(rank, args.buffer, tree, segsize));

export const reduceOn = (def: OnTree): Defined<'reduce'> =>
  onTree('reduce', def, (rank, args, tree, segsize) => reduceOnTree(rank, args, tree, segsize));
