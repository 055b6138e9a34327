// A catalogue: the operations with their semantics and the algorithms that implement them. The
// semantics table is typed per operation, so an algorithm's program and its operation's semantics
// agree on the argument type; tests build catalogues of their own from other lists.
import type { Algorithm, AlgorithmInfo } from './algorithm.ts';
import { buildListing, type Listing } from './listing.ts';
import type { ArgsOf, OperationInfo, OperationName } from './operations.ts';
import type { OperationSemantics } from './semantics.ts';

export type SemanticsTable = { [Op in OperationName]: OperationSemantics<ArgsOf<Op>> };

export interface CatalogueParts {
  operations: readonly OperationInfo[];
  semantics: SemanticsTable;
  algorithms: readonly Algorithm[];
}

export interface Catalogue extends Listing<Algorithm> {
  readonly parts: CatalogueParts;
  semanticsOf<Op extends OperationName>(operation: Op): OperationSemantics<ArgsOf<Op>>;
  /** The algorithms of one operation, typed by it (for compositions that run another algorithm). */
  typedAlgorithms<Op extends OperationName>(operation: Op): Array<AlgorithmInfo<Op>>;
}

/** Every algorithm of `algorithms`, by operation, with its typed definition. */
export function byOperation(
  algorithms: readonly Algorithm[],
): <Op extends OperationName>(operation: Op) => Array<AlgorithmInfo<Op>> {
  const table = emptyTable();
  const add = <Op extends OperationName>(info: AlgorithmInfo<Op>): void => {
    const list: Array<AlgorithmInfo<Op>> = table[info.operation];
    list.push(info);
  };
  for (const alg of algorithms) alg.open(add);
  return <Op extends OperationName>(operation: Op): Array<AlgorithmInfo<Op>> => {
    const list: Array<AlgorithmInfo<Op>> = table[operation];
    return [...list].sort((a, b) => a.name.localeCompare(b.name));
  };
}

type Table = { [Op in OperationName]: Array<AlgorithmInfo<Op>> };

function emptyTable(): Table {
  return {
    bcast: [],
    scatter: [],
    scatterv: [],
    gather: [],
    gatherv: [],
    alltoall: [],
    alltoallv: [],
    allgather: [],
    allgatherv: [],
    reduce: [],
    allreduce: [],
    barrier: [],
    pingpong: [],
    pingping: [],
    onetoall: [],
    alltoallpairs: [],
    knemcopy: [],
  };
}

export function buildCatalogue(parts: CatalogueParts): Catalogue {
  const listing = buildListing(parts.operations, parts.algorithms);
  for (const op of parts.operations) {
    if (!(op.name in parts.semantics)) throw new Error(`operation ${op.name} has no semantics`);
  }
  return {
    ...listing,
    parts,
    semanticsOf: (operation) => parts.semantics[operation],
    typedAlgorithms: byOperation(parts.algorithms),
  };
}
