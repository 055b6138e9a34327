// Remote iovecs of the CMA collectives. The "address" a rank sends out of band is the range itself
// (buffer and offset), which is what process_vm_readv/writev take as the remote iovec. An empty
// transfer makes no system call at all, as Open MPI's CMA path skips zero-length iovecs.
import type { Program, Range, Rank } from '../../../sim/node/rank-api.ts';

export function totalBytes(rs: Range | readonly Range[]): number {
  return isRangeList(rs) ? rs.reduce((n, r) => n + r.bytes, 0) : rs.bytes;
}

// Array.isArray narrows a readonly array to any[]; this keeps the element type.
function isRangeList(rs: Range | readonly Range[]): rs is readonly Range[] {
  return Array.isArray(rs);
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
