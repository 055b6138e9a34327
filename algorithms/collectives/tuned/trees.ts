// The communication trees of Open MPI's coll_base (ompi/mca/coll/base/coll_base_topo.c), built on
// rank order shifted by the root: they see only communicator ranks, never where the ranks run.
// Each returns one rank's view: its parent (-1 at the root) and its children in sending order.

export interface Tree {
  parent: number;
  children: number[];
}

const shift = (rank: number, root: number, size: number) => (rank - root + size) % size;
const unshift = (vrank: number, root: number, size: number) => (vrank + root) % size;

/**
 * Binomial tree of ompi_coll_base_topo_build_bmtree: the parent of shifted rank v is v with its
 * highest bit cleared; its children are v + 2^k for every 2^k above v's highest bit (ascending).
 * Depth and the root's fan-out are both ceil(log2 size).
 */
export function binomialTree(rank: number, root: number, size: number): Tree {
  const v = shift(rank, root, size);
  let mask = 1;
  while (mask <= v) mask <<= 1; // opal_next_poweroftwo(v): smallest power of two above v
  const parent = v === 0 ? -1 : unshift(v ^ (mask >> 1), root, size);
  const children: number[] = [];
  for (; mask < size; mask <<= 1) {
    if ((v ^ mask) >= size) break;
    children.push(unshift(v ^ mask, root, size));
  }
  return { parent, children };
}

/**
 * In-order binomial tree of ompi_coll_base_topo_build_in_order_bmtree (gather, scatter): the parent
 * of v is v with its lowest set bit cleared, its children v + 2^k below that bit (ascending), so
 * the subtree of v is the contiguous shifted ranks [v, v + lowbit(v)).
 */
export function inOrderBinomialTree(rank: number, root: number, size: number): Tree {
  const v = shift(rank, root, size);
  let parent = -1;
  const children: number[] = [];
  for (let mask = 1; mask < size; mask <<= 1) {
    const remote = v ^ mask;
    if (remote < v) {
      parent = unshift(remote, root, size);
      break;
    }
    if (remote < size) children.push(unshift(remote, root, size));
  }
  return { parent, children };
}

/** Shifted ranks in the in-order binomial subtree rooted at shifted rank v. */
export function inOrderSubtreeSize(v: number, size: number): number {
  if (v === 0) return size;
  const low = v & -v;
  return Math.min(low, size - v);
}

/**
 * k-ary tree of ompi_coll_base_topo_build_tree, filled level by level: a node at level L (2^L
 * nodes on it for fanout 2) has children v + delta*(i+1). With fanout 2 the root's left subtree
 * holds the odd shifted ranks and its right subtree the even ones (split-binary bcast relies on it).
 */
export function kAryTree(fanout: number, rank: number, root: number, size: number): Tree {
  const v = shift(rank, root, size);
  if (size < 2) return { parent: -1, children: [] };
  const pown = (l: number) => fanout ** l;
  let level = 0;
  for (let num = 0; num <= v; level++) num += pown(level);
  level -= 1;
  const delta = pown(level);
  const children: number[] = [];
  for (let i = 0; i < fanout; i++) {
    const c = v + delta * (i + 1);
    if (c >= size) break;
    children.push(unshift(c, root, size));
  }
  if (v === 0) return { parent: -1, children };
  // Nodes on the levels above mine: (fanout^level - 1) / (fanout - 1).
  const above = fanout === 1 ? level : (pown(level) - 1) / (fanout - 1);
  let p = v;
  if (p < fanout) p = 0;
  else while (p >= above) p -= delta / fanout;
  return { parent: unshift(p, root, size), children };
}

/** Chain of ompi_coll_base_topo_build_chain with fanout 1 (the pipeline): v receives from v-1, sends to v+1. */
export function chainTree(rank: number, root: number, size: number): Tree {
  const v = shift(rank, root, size);
  return {
    parent: v === 0 ? -1 : unshift(v - 1, root, size),
    children: v + 1 < size ? [unshift(v + 1, root, size)] : [],
  };
}

/**
 * K-nomial tree of ompi_coll_base_topo_build_kmtree (Open MPI 4.1): the parent of shifted rank v
 * is v with its lowest non-zero base-`radix` digit cleared; its children are v + j*radix^k for the
 * radix^k below that digit, largest k first, j = 1..radix-1. With radix 2 it is a binomial tree,
 * but not bmtree's (whose parent clears the highest bit, not the lowest).
 */
export function knomialTree(radix: number, rank: number, root: number, size: number): Tree {
  const v = shift(rank, root, size);
  let mask = 1;
  let parent = -1;
  while (mask < size) {
    if (v % (radix * mask) !== 0) {
      parent = unshift(Math.floor(v / (radix * mask)) * radix * mask, root, size);
      break;
    }
    mask *= radix;
  }
  const children: number[] = [];
  for (mask = Math.floor(mask / radix); mask > 0; mask = Math.floor(mask / radix)) {
    // Children past the communicator's end are none: a radix beyond the size costs no more.
    for (let j = 1; j < radix && v + mask * j < size; j++) children.push(unshift(v + mask * j, root, size));
  }
  return { parent, children };
}
