// Operations and algorithms by name, sorted as `intranode algorithms` prints them. A catalogue is
// one (algorithms/catalogue.ts); the scenario tests build one of metadata alone.
import type { AlgorithmMeta } from './algorithm.ts';
import type { OperationInfo } from './operations.ts';

export interface Listing<A extends AlgorithmMeta = AlgorithmMeta> {
  listOperations(): OperationInfo[];
  findOperation(name: string): OperationInfo | undefined;
  listAlgorithms(operation?: string): A[];
  /** Accepts a full name ("bcast:binomial") or, with `operation`, a short one ("binomial"). */
  findAlgorithm(name: string, operation?: string): A | undefined;
}

/** Checks that names are unique and every algorithm's operation exists. */
export function buildListing<A extends AlgorithmMeta>(
  operationList: readonly OperationInfo[],
  algorithmList: readonly A[],
): Listing<A> {
  const operations = new Map<string, OperationInfo>();
  for (const op of operationList) {
    if (operations.has(op.name)) throw new Error(`operation ${op.name} listed twice`);
    operations.set(op.name, op);
  }
  const algorithms = new Map<string, A>();
  for (const alg of algorithmList) {
    if (!operations.has(alg.operation)) throw new Error(`algorithm ${alg.name}: unknown operation ${alg.operation}`);
    if (!alg.name.startsWith(`${alg.operation}:`))
      throw new Error(`algorithm ${alg.name} must be named ${alg.operation}:<name>`);
    if (algorithms.has(alg.name)) throw new Error(`algorithm ${alg.name} listed twice`);
    algorithms.set(alg.name, alg);
  }
  const sortedOps = [...operations.values()].sort((a, b) => a.name.localeCompare(b.name));
  const sortedAlgs = [...algorithms.values()].sort((a, b) => a.name.localeCompare(b.name));
  return {
    listOperations: () => [...sortedOps],
    findOperation: (name) => operations.get(name),
    listAlgorithms: (operation) => sortedAlgs.filter((a) => operation === undefined || a.operation === operation),
    findAlgorithm: (name, operation) =>
      algorithms.get(name) ?? (operation ? algorithms.get(`${operation}:${name}`) : undefined),
  };
}
