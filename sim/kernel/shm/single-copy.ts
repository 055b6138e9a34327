// Single-copy rendezvous over a kernel mechanism, with the shared-memory transport carrying only
// the control packets (seed 004 §4.4, the KNEM LMT's Get model): the sender prepares its buffer and
// sends the descriptor in the RTS; the receiver matches, copies the data straight from the sender's
// buffer, and answers DONE, which lets the sender complete.
//   KNEM  : single-use read region; the cookie travels; the receiver's inline copy reads it.
//   CMA   : the sender's range travels; the receiver calls process_vm_readv.
//   XPMEM : the sender's buffer is exposed once (segid cached); the receiver attaches and copies.
//   LiMIC : the sender's tx descriptor travels; the receiver's rx copies.
import type { Program } from '../../engine/program.ts';
import type { Buffer, Range } from '../../node/buffer.ts';
import type { Cma, Knem, Limic, Xpmem, XpmemSegid } from '../../node/rank-api.ts';
import type { SingleCopyDescriptor } from '../../node/single-copy-descriptor.ts';
import type { World } from '../../node/world.ts';
import { lazily, RunState } from '../../node/run-state.ts';
import { nextPacket } from './delivery.ts';
import { replyTo, withKind, type Packet, type PacketHeader } from './packet.ts';
import { traced, type DoubleCopy } from './transport.ts';

/** The rank's own mechanism objects, as the rank context exposes them. */
export interface SingleCopyMechanisms {
  knem: Knem;
  cma: Cma;
  xpmem: Xpmem;
  limic: Limic;
}

export function* sendSingleCopy(
  world: World,
  t: DoubleCopy,
  me: number,
  mech: SingleCopyMechanisms,
  header: PacketHeader,
  data: Range,
): Program<void> {
  const to = header.to;
  const bytes = data.bytes;
  let descriptor: SingleCopyDescriptor;
  switch (header.path) {
    case 'knem':
      descriptor = {
        mechanism: 'knem',
        bytes,
        cookie: yield* mech.knem.createRegion(data, { read: true, singleUse: true }),
      };
      break;
    case 'cma':
      descriptor = { mechanism: 'cma', bytes, remote: data };
      break;
    case 'xpmem':
      descriptor = {
        mechanism: 'xpmem',
        bytes,
        segid: yield* exposed(world, me, mech.xpmem, data.buf),
        offset: data.offset,
      };
      break;
    case 'limic':
      descriptor = { mechanism: 'limic', bytes, descriptor: yield* mech.limic.txInit(data) };
      break;
    default:
      throw new Error(`single-copy send over ${header.path}`);
  }
  yield* t.post(withKind(header, 'rts', descriptor));
  const done = yield* traced(world, me, 'wait', `done<-${to}`, nextPacket(world, header.id, me));
  yield* t.unpack(done);
}

/** Receiver side after matching the RTS; `into` holds exactly the message's bytes. */
export function* recvSingleCopy(
  world: World,
  t: DoubleCopy,
  me: number,
  mech: SingleCopyMechanisms,
  rts: Packet,
  into: Range,
): Program<void> {
  const from = rts.from;
  yield* t.unpack(rts);
  const d = rts.descriptor;
  if (!d) throw new Error(`rank ${me}: an RTS over ${rts.path} from rank ${from} carries no descriptor`);
  if (into.bytes > 0) {
    switch (d.mechanism) {
      case 'knem': {
        const handle = yield* mech.knem.inlineCopy({
          cookie: d.cookie,
          offset: 0,
          local: into,
          direction: 'read',
        });
        yield* handle.wait();
        break;
      }
      case 'cma':
        yield* mech.cma.readv(from, into, d.remote);
        break;
      case 'xpmem': {
        const view = yield* mech.xpmem.attach(from, d.segid, d.offset, d.bytes);
        yield* world.node.copy(world.cores[me], view, into, { rank: me, label: `xpmem copy <-${from}` });
        yield* mech.xpmem.detach(view);
        break;
      }
      case 'limic':
        yield* mech.limic.rx(d.descriptor, into);
        break;
    }
  }
  yield* t.post(replyTo(rts, 'done'));
}

/** Each rank's segment ids by buffer id, for the run. */
const EXPOSED = new RunState('p2p xpmem segids', () => new Map<number, Map<number, XpmemSegid>>());

/** XPMEM implementations expose a buffer once and keep the segment id for later messages. */
function* exposed(world: World, me: number, xpmem: Xpmem, buf: Buffer): Program<XpmemSegid> {
  const segids = lazily(world.stateOf(EXPOSED), me, () => new Map<number, XpmemSegid>());
  let segid = segids.get(buf.id);
  if (segid === undefined) {
    segid = yield* xpmem.make(buf);
    segids.set(buf.id, segid);
  }
  return segid;
}
