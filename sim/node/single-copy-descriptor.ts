// What a sender hands a receiver so that it can copy straight out of the sender's buffer, one shape
// per kernel mechanism: a receiver switches on `mechanism` and reads that mechanism's own fields,
// typed, instead of casting an opaque value. The MPI library's rendezvous (sim/kernel/shm) and the
// point-to-point benchmark programs (algorithms/p2p) send the same descriptors.
import type { Range } from './buffer.ts';
import type { KnemCookie, XpmemSegid } from './rank-api.ts';

export type SingleCopyDescriptor =
  /** A KNEM region of the sender's buffer; the receiver's inline copy reads it. */
  | { mechanism: 'knem'; bytes: number; cookie: KnemCookie }
  /** The sender's range itself, the remote iovec of the receiver's process_vm_readv. */
  | { mechanism: 'cma'; bytes: number; remote: Range }
  /** The segment the sender exposed and where in it the message lies; the receiver attaches it. */
  | { mechanism: 'xpmem'; bytes: number; segid: XpmemSegid; offset: number }
  /** LiMIC's tx descriptor, opaque to its users by the module's interface. */
  | { mechanism: 'limic'; bytes: number; descriptor: unknown };

export type SingleCopyMechanism = SingleCopyDescriptor['mechanism'];
