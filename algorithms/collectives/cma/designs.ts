// Every CMA collective but the broadcast comes as a linear design (every peer at once) and a
// staggered one (`concurrency` peers at a time, seed 001), the same program under two bounds.
import { defineAlgorithm, type AlgorithmProgram, type Defined } from '../../algorithm.ts';
import type { OperationName } from '../../operations.ts';
import { concurrencyParam, linear, staggered, type Concurrency } from './params.ts';

export function cmaDesigns<Op extends OperationName>(
  operation: Op,
  program: (concurrency: Concurrency) => AlgorithmProgram<Op>,
  describe: { linear: string; staggered: string },
): [linear: Defined<Op>, staggered: Defined<Op>] {
  const staggeredName = `${operation}:cma-staggered`;
  return [
    defineAlgorithm({
      name: `${operation}:cma-linear`,
      operation,
      description: describe.linear,
      params: [],
      program: program(linear),
    }),
    defineAlgorithm({
      name: staggeredName,
      operation,
      description: describe.staggered,
      params: [concurrencyParam],
      test: { params: { concurrency: { integers: { min: 1, max: 6 } } } },
      program: program(staggered(staggeredName)),
    }),
  ];
}
