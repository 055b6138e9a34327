// coll/sm's fixed-degree tree (ompi/mca/coll/sm/coll_sm_module.c): on shifted ranks
// v = (rank - root) mod N, node v's children are v*degree + 1 ... v*degree + degree and its parent
// is (v - 1) / degree. Built from rank order alone: Graham and Shipman's tree knows nothing of
// sockets or caches (the criticism in seed 000, §II).
export interface SmTree {
  parent: number;
  children: number[];
}

export function smTree(rank: number, root: number, size: number, degree: number): SmTree {
  const v = (rank - root + size) % size;
  const children: number[] = [];
  for (let c = v * degree + 1; c <= v * degree + degree && c < size; c++) children.push((c + root) % size);
  const parent = v === 0 ? -1 : (Math.floor((v - 1) / degree) + root) % size;
  return { parent, children };
}
