// Counts and displacements of the v-variants (scatterv, gatherv, allgatherv, alltoallv).
//
// Counts come from `call.counts` when the caller gives them; otherwise from `bytes` by a fixed rule
// (`defaultCount`), so that a sweep over sizes exercises unequal blocks and empty ones:
//   rank r (for alltoallv: the pair sender i, receiver j, with r = i + j) contributes
//     r mod 3 = 0: bytes          r mod 3 = 1: floor(bytes / 2) + 1 (0 when bytes = 0)
//     r mod 3 = 2: 0 bytes
// Displacements are packed in rank order unless `call.params` gives them as a comma-separated list
// of integers ('displs' for scatterv/gatherv/allgatherv; 'sendDispls' and 'recvDispls' for
// alltoallv, n*n entries each, entry [owner*n + peer] placing owner's block for/from peer).
import type { OperationCall } from '../../semantics.ts';

export function defaultCount(bytes: number, r: number): number {
  switch (r % 3) {
    case 0:
      return bytes;
    case 1:
      return bytes === 0 ? 0 : Math.floor(bytes / 2) + 1;
    default:
      return 0;
  }
}

function checkList(operation: string, field: string, list: readonly number[], length: number, what: string): number[] {
  // Counts reach here from scenario files and tests as well as from typed callers: check the shape.
  const given: unknown = list;
  if (!Array.isArray(given) || list.length !== length) {
    throw new Error(
      `${operation}: ${field} has ${Array.isArray(given) ? list.length : 'no'} entries, expected ${length} (${what})`,
    );
  }
  list.forEach((v, i) => {
    if (!Number.isInteger(v) || v < 0)
      throw new Error(`${operation}: ${field}[${i}] must be a non-negative integer, got ${v}`);
  });
  return list.slice();
}

/** Per-rank counts of scatterv, gatherv and allgatherv: `call.counts` (length n) or the rule. */
function vCounts(operation: string, call: OperationCall, n: number): number[] {
  if (call.counts !== undefined) return checkList(operation, 'counts', call.counts, n, 'one per rank');
  return Array.from({ length: n }, (_, r) => defaultCount(call.bytes, r));
}

/** alltoallv counts as a matrix [sender][receiver]: `call.counts` row-major (length n*n) or the rule. */
export function pairCounts(operation: string, call: OperationCall, n: number): number[][] {
  const flat =
    call.counts !== undefined
      ? checkList(
          operation,
          'counts',
          call.counts,
          n * n,
          `one per sender and receiver, row-major by sender, for ${n} ranks`,
        )
      : Array.from({ length: n * n }, (_, k) => defaultCount(call.bytes, Math.floor(k / n) + (k % n)));
  return Array.from({ length: n }, (_, i) => flat.slice(i * n, i * n + n));
}

export function packed(counts: readonly number[]): number[] {
  const displs: number[] = [];
  let at = 0;
  for (const c of counts) {
    displs.push(at);
    at += c;
  }
  return displs;
}

/**
 * Bytes a buffer holding these blocks needs: the end of the last block. Empty blocks count too, so
 * that a zero-byte range at any given displacement lies inside the buffer.
 */
export function extent(counts: readonly number[], displs: readonly number[]): number {
  return counts.reduce((end, c, r) => Math.max(end, displs[r] + c), 0);
}

/** Parses `params[field]`, a comma-separated list of `length` non-negative integers. */
export function displsParam(
  operation: string,
  call: OperationCall,
  field: string,
  length: number,
): number[] | undefined {
  const raw = call.params[field];
  if (raw === undefined) return undefined;
  const text = String(raw).trim();
  const items = text === '' ? [] : text.split(',').map((s) => s.trim());
  const values = items.map((s) => (/^\d+$/.test(s) ? Number(s) : NaN));
  if (values.length !== length || values.some((v) => !Number.isSafeInteger(v))) {
    throw new Error(
      `${operation}: params.${field} must list ${length} non-negative integers separated by commas, got ${JSON.stringify(raw)}`,
    );
  }
  return values;
}

/** Displacements from `params[field]` or packed; receive-side blocks must not overlap (MPI). */
function displacements(
  operation: string,
  call: OperationCall,
  field: string,
  counts: readonly number[],
  receive: boolean,
): number[] {
  const displs = displsParam(operation, call, field, counts.length) ?? packed(counts);
  if (receive) checkDisjoint(operation, field, counts, displs);
  return displs;
}

/**
 * Per-rank counts and displacements of scatterv, gatherv or allgatherv, and the bytes of the
 * buffer holding all the blocks. Blocks a rank receives into must not overlap (MPI); the root's
 * send blocks of scatterv may, since it only reads them.
 */
export function vLayout(
  operation: string,
  call: OperationCall,
  n: number,
  receive: boolean,
): { counts: number[]; displs: number[]; bytes: number } {
  const counts = vCounts(operation, call, n);
  const displs = displacements(operation, call, 'displs', counts, receive);
  return { counts, displs, bytes: extent(counts, displs) };
}

export function checkDisjoint(
  operation: string,
  field: string,
  counts: readonly number[],
  displs: readonly number[],
): void {
  const blocks = counts.map((c, r) => ({ r, start: displs[r], end: displs[r] + c })).filter((b) => b.end > b.start);
  blocks.sort((a, b) => a.start - b.start || a.r - b.r);
  for (let k = 1; k < blocks.length; k++) {
    if (blocks[k].start < blocks[k - 1].end) {
      throw new Error(
        `${operation}: params.${field} makes the receive blocks of ranks ${blocks[k - 1].r} and ${blocks[k].r} overlap`,
      );
    }
  }
}
