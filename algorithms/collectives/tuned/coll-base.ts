// The definition of a coll_base algorithm without parameters of its own: Open MPI's name for it
// within its operation, one line for `intranode algorithms`, and its program.
import { defineAlgorithm, type AlgorithmProgram, type Defined } from '../../algorithm.ts';
import type { PropertyHints } from '../../property-hints.ts';
import type { CollectiveArgs } from '../args.ts';

export function collBase<Op extends keyof CollectiveArgs>(operation: Op, name: string, description: string, program: AlgorithmProgram<Op>, test?: PropertyHints): Defined<Op> {
  return defineAlgorithm({ name: `${operation}:${name}`, operation, description, params: [], test, program });
}
