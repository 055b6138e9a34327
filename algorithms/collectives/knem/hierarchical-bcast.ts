// Topology- and NUMA-aware pipelined KNEM broadcast (Ma et al. 2010, seed 000, §V, Figure 4).
// (1) The root declares its send buffer to KNEM and gets a cookie. (2) It passes the cookie to its
// children: the leader of every other NUMA node and the leaves of its own. (3) They pull from the
// root's region. (4) Leaders pass what they just received on to the leaves of their set by the same
// steps, segment by segment: a leader declares its receive buffer as a region and raises a
// "segment k ready" flag its leaves poll as soon as segment k has arrived, so its leaves copy
// segment k while it pulls segment k+1. Leaves of the root's set read the root directly, without
// a pipeline (no one waits on them). Only one copy of the message crosses to each NUMA node, and
// the leaves' copies hit the leader's node (or its caches) instead of the root's.
import { subRange } from '../../../sim/node/buffer.ts';
import type { KnemCookie, Program, Range, Rank } from '../../../sim/node/rank-api.ts';
import type { BcastArgs } from '../args.ts';
import { defineAlgorithm } from '../../algorithm.ts';
import { fragments } from '../blocks.ts';
import { pull } from './copy.ts';
import { numaTree } from './numa-tree.ts';
import { HIERARCHICAL_TEST, segmentOf, segmentParam } from './params.ts';

/** "Segment k of the leader's region is ready." */
interface SegmentReady {
  cookie: KnemCookie;
  segment: number;
}

export function* knemHierarchicalBcastOf(rank: Rank, root: number, buffer: Range, segment: number): Program<void> {
  if (rank.size === 1 || buffer.bytes === 0) return;
  const me = rank.id;
  const tree = numaTree(rank.topology, rank.size, root);
  const children = tree.children(me);
  const parent = tree.parent(me);

  if (me === root) {
    const cookie = yield* rank.knem.createRegion(buffer, { read: true });
    for (const child of children) yield* rank.control.send(child, cookie);
    for (const child of children) yield* rank.control.recv(child); // done reading
    yield* rank.knem.destroyRegion(cookie);
  } else if (tree.leaders.includes(me)) {
    const rootCookie = (yield* rank.control.recv(root)) as KnemCookie;
    const mine = children.length > 0 ? yield* rank.knem.createRegion(buffer, { read: true }) : undefined;
    for (const [k, [offset, bytes]] of fragments(buffer.bytes, segment).entries()) {
      yield* pull(rank, rootCookie, offset, subRange(buffer, offset, bytes));
      if (mine === undefined) continue;
      // One "segment k ready" flag for the whole set: every leaf polls the leader's line.
      const ready: SegmentReady = { cookie: mine, segment: k };
      yield* rank.control.publish(children, ready);
    }
    yield* rank.control.send(root, 'done');
    if (mine !== undefined) {
      for (const leaf of children) yield* rank.control.recv(leaf); // done reading
      yield* rank.knem.destroyRegion(mine);
    }
  } else if (parent === root) {
    const cookie = (yield* rank.control.recv(root)) as KnemCookie;
    yield* pull(rank, cookie, 0, buffer);
    yield* rank.control.send(root, 'done');
  } else {
    for (const [k, [offset, bytes]] of fragments(buffer.bytes, segment).entries()) {
      const ready = (yield* rank.control.recv(parent!)) as SegmentReady;
      if (ready.segment !== k)
        throw new Error(
          `bcast:knem-hierarchical: rank ${me} expected segment ${k} from its leader, got ${ready.segment}`,
        );
      yield* pull(rank, ready.cookie, offset, subRange(buffer, offset, bytes));
    }
    yield* rank.control.send(parent!, 'done');
  }
}

export function* knemHierarchicalBcast(rank: Rank, { buffer, root, params }: BcastArgs): Program<void> {
  yield* knemHierarchicalBcastOf(rank, root, buffer, segmentOf('bcast:knem-hierarchical', params));
}

export const bcastKnemHierarchical = defineAlgorithm({
  name: 'bcast:knem-hierarchical',
  operation: 'bcast',
  description:
    'two-level NUMA tree: one leader per NUMA node pulls from the root, its leaves pull from it segment by segment (Ma et al. 2010, §V)',
  params: [segmentParam],
  test: HIERARCHICAL_TEST,
  program: knemHierarchicalBcast,
});
