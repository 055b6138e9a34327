// The definition of a coll_base algorithm: Open MPI's name for it within its operation, one line
// for `intranode algorithms`, its program, and its own parameters and property-test hints if any.
import { defineAlgorithm, type AlgorithmProgram, type Defined, type ParamInfo } from '../../algorithm.ts';
import type { PropertyHints } from '../../property-hints.ts';
import type { CollectiveArgs } from '../args.ts';

export function collBase<Op extends keyof CollectiveArgs>(
  operation: Op,
  name: string,
  description: string,
  program: AlgorithmProgram<Op>,
  { params = [], test, ranks }: { params?: ParamInfo[]; test?: PropertyHints; ranks?: number } = {},
): Defined<Op> {
  return defineAlgorithm({ name: `${operation}:${name}`, operation, description, params, test, program, ranks });
}
