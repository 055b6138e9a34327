// An AVL tree of disjoint address intervals [start, end), ordered by start: the registration
// cache's per-peer index (Hashmi et al., seed 001: "remote pages that are attached are kept in an
// AVL tree, one tree per remote peer; insertion and lookup in O(log n)").

export interface Interval<V> {
  readonly start: number;
  readonly end: number;
  readonly value: V;
}

interface TreeNode<V> extends Interval<V> {
  left: TreeNode<V> | undefined;
  right: TreeNode<V> | undefined;
  height: number;
}

export class IntervalAvl<V> {
  private root: TreeNode<V> | undefined = undefined;
  private count = 0;

  get size(): number {
    return this.count;
  }

  /** Height of the tree: 0 when empty, 1 for a single node. */
  get height(): number {
    return h(this.root);
  }

  /** Adds [start, end); it must be non-empty and overlap no interval already present. */
  insert(start: number, end: number, value: V): void {
    if (!(end > start)) throw new RangeError(`interval [${start}, ${end}) is empty`);
    const clash = this.overlapping(start, end)[0];
    if (clash) throw new RangeError(`interval [${start}, ${end}) overlaps [${clash.start}, ${clash.end})`);
    this.root = insertNode(this.root, { start, end, value, left: undefined, right: undefined, height: 1 });
    this.count++;
  }

  /** Removes the interval starting at `start`; returns it, or undefined when there is none. */
  delete(start: number): Interval<V> | undefined {
    const found = this.exact(start);
    if (!found) return undefined;
    this.root = deleteNode(this.root, start);
    this.count--;
    return { start: found.start, end: found.end, value: found.value };
  }

  /** The interval that holds all of [start, end), if one does. */
  containing(start: number, end: number): Interval<V> | undefined {
    // The candidate is the interval with the greatest start <= `start`: intervals are disjoint.
    let node = this.root;
    let best: TreeNode<V> | undefined;
    while (node) {
      if (node.start <= start) {
        best = node;
        node = node.right;
      } else {
        node = node.left;
      }
    }
    return best && best.end >= end && best.end > start ? best : undefined;
  }

  /** Every interval sharing at least one address with [start, end), in address order. */
  overlapping(start: number, end: number): Interval<V>[] {
    const out: Interval<V>[] = [];
    const visit = (node: TreeNode<V> | undefined): void => {
      if (!node) return;
      // Everything left of a node ends by node.start: when that is <= `start`, nothing there overlaps.
      if (node.start > start) visit(node.left);
      if (node.start < end && node.end > start) out.push(node);
      if (node.start < end) visit(node.right);
    };
    visit(this.root);
    return out;
  }

  /** In address order. */
  entries(): Interval<V>[] {
    const out: Interval<V>[] = [];
    const walk = (node: TreeNode<V> | undefined): void => {
      if (!node) return;
      walk(node.left);
      out.push(node);
      walk(node.right);
    };
    walk(this.root);
    return out;
  }

  /** Throws if ordering, disjointness, stored heights or the AVL balance rule are broken. */
  checkInvariants(): void {
    let previousEnd = -Infinity;
    const walk = (node: TreeNode<V> | undefined): number => {
      if (!node) return 0;
      const lh = walk(node.left);
      if (node.start < previousEnd)
        throw new Error(`interval [${node.start}, ${node.end}) out of order or overlapping`);
      previousEnd = node.end;
      const rh = walk(node.right);
      if (Math.abs(lh - rh) > 1) throw new Error(`node [${node.start}, ${node.end}) unbalanced: ${lh} vs ${rh}`);
      if (node.height !== 1 + Math.max(lh, rh))
        throw new Error(`node [${node.start}, ${node.end}) stores a wrong height`);
      return node.height;
    };
    walk(this.root);
  }

  private exact(start: number): TreeNode<V> | undefined {
    let node = this.root;
    while (node && node.start !== start) node = start < node.start ? node.left : node.right;
    return node;
  }
}

function h<V>(node: TreeNode<V> | undefined): number {
  return node ? node.height : 0;
}

function update<V>(node: TreeNode<V>): void {
  node.height = 1 + Math.max(h(node.left), h(node.right));
}

function rotateRight<V>(node: TreeNode<V>): TreeNode<V> {
  const pivot = node.left!;
  node.left = pivot.right;
  pivot.right = node;
  update(node);
  update(pivot);
  return pivot;
}

function rotateLeft<V>(node: TreeNode<V>): TreeNode<V> {
  const pivot = node.right!;
  node.right = pivot.left;
  pivot.left = node;
  update(node);
  update(pivot);
  return pivot;
}

function rebalance<V>(node: TreeNode<V>): TreeNode<V> {
  update(node);
  const balance = h(node.left) - h(node.right);
  if (balance > 1) {
    if (h(node.left!.left) < h(node.left!.right)) node.left = rotateLeft(node.left!);
    return rotateRight(node);
  }
  if (balance < -1) {
    if (h(node.right!.right) < h(node.right!.left)) node.right = rotateRight(node.right!);
    return rotateLeft(node);
  }
  return node;
}

function insertNode<V>(node: TreeNode<V> | undefined, fresh: TreeNode<V>): TreeNode<V> {
  if (!node) return fresh;
  if (fresh.start < node.start) node.left = insertNode(node.left, fresh);
  else node.right = insertNode(node.right, fresh);
  return rebalance(node);
}

function deleteNode<V>(node: TreeNode<V> | undefined, start: number): TreeNode<V> | undefined {
  if (!node) return undefined;
  if (start < node.start) node.left = deleteNode(node.left, start);
  else if (start > node.start) node.right = deleteNode(node.right, start);
  else {
    if (!node.left) return node.right;
    if (!node.right) return node.left;
    // Two children: the in-order successor takes this node's place.
    let successor = node.right;
    while (successor.left) successor = successor.left;
    const right = deleteNode(node.right, successor.start);
    const replacement: TreeNode<V> = { ...successor, left: node.left, right, height: 1 };
    return rebalance(replacement);
  }
  return rebalance(node);
}
