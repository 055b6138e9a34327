// Everything the simulator can run, in one place: the operations with their semantics, and every
// family of algorithms. A new family is one line in `families`; a new algorithm of a family is one
// line in that family's list (its index.ts). Tests build catalogues of their own with
// buildCatalogue (build-catalogue.ts), e.g. this one's parts plus an extra algorithm.
import type { Algorithm } from './algorithm.ts';
import { buildCatalogue, byOperation, type Catalogue, type CatalogueParts } from './build-catalogue.ts';
import { basicAlgorithms } from './collectives/basic/index.ts';
import { cmaAlgorithms } from './collectives/cma/index.ts';
import { knemAlgorithms } from './collectives/knem/index.ts';
import { collectiveOperations } from './collectives/ops.ts';
import { collectiveSemantics } from './collectives/semantics/index.ts';
import { smAlgorithms } from './collectives/sm/index.ts';
import { collBaseAlgorithms } from './collectives/tuned/index.ts';
import { tunedAlgorithms } from './collectives/tuned/tuned.ts';
import { twoLevelAlgorithms } from './collectives/two-level/index.ts';
import { xpmemAlgorithms } from './collectives/xpmem/index.ts';
import { p2pAlgorithms, p2pOperations, p2pSemantics } from './p2p/index.ts';

const families: ReadonlyArray<readonly Algorithm[]> = [
  p2pAlgorithms,
  basicAlgorithms,
  collBaseAlgorithms,
  tunedAlgorithms,
  smAlgorithms,
  knemAlgorithms,
  cmaAlgorithms,
  xpmemAlgorithms,
];

const singleLevel = families.flat();

/** The parts of the catalogue, for tests that build one of their own from them. */
export const catalogueParts: CatalogueParts = {
  operations: [...p2pOperations, ...collectiveOperations],
  semantics: { ...p2pSemantics, ...collectiveSemantics },
  // The two-level compositions run any single-level algorithm at each level.
  algorithms: [...singleLevel, ...twoLevelAlgorithms(byOperation(singleLevel))],
};

export const catalogue: Catalogue = buildCatalogue(catalogueParts);
