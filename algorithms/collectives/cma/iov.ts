// Remote iovecs of the CMA collectives. The "address" a rank sends out of band is the range itself
// (buffer and offset), which is what process_vm_readv/writev take as the remote iovec. An empty
// transfer makes no system call at all, as Open MPI's CMA path skips zero-length iovecs.
import type { Program, Range, Rank } from '../../../sim/node/rank-api.ts';

export function totalBytes(rs: Range | readonly Range[]): number {
  return Array.isArray(rs) ? rs.reduce((n: number, r: Range) => n + r.bytes, 0) : (rs as Range).bytes;
}

/** process_vm_readv: `local` <- `remote` of `target`. */
export function* readFrom(rank: Rank, target: number, local: Range | Range[], remote: Range | Range[]): Program<void> {
  if (totalBytes(local) === 0) return;
  yield* rank.cma.readv(target, local, remote);
}

/** process_vm_writev: `local` -> `remote` of `target`. */
export function* writeTo(rank: Rank, target: number, local: Range | Range[], remote: Range | Range[]): Program<void> {
  if (totalBytes(local) === 0) return;
  yield* rank.cma.writev(target, local, remote);
}
