// MPI_Alltoall and MPI_Alltoallv: block j of rank i's send buffer lands as block i of rank j's
// receive buffer.
import { range } from '../../../sim/node/buffer.ts';
import type { Rank } from '../../../sim/node/rank-api.ts';
import type { OperationCall, OperationSemantics } from '../../semantics.ts';
import type { AlltoallArgs, AlltoallvArgs } from '../args.ts';
import { checkSize, fillFresh, fillUninitialised, source } from '../../fill.ts';
import { paramsOf } from './checks.ts';
import { expectBlocks, expectUnchanged, freshBlock } from './expect.ts';
import { checkDisjoint, displsParam, extent, packed, pairCounts } from './vcounts.ts';
import { noBytes } from './mpi-entry.ts';

/**
 * Equal-block all-to-all: block j of rank i's send buffer lands as block i of rank j's receive
 * buffer. Shared by MPI_Alltoall and the pairwise-exchange benchmark, which differ only in name.
 */
export function equalBlockAlltoall(operation: string): OperationSemantics<AlltoallArgs> {
  return {
    operation,
    setup(rank: Rank, call: OperationCall): AlltoallArgs {
      const bytes = checkSize(operation, call.bytes);
      const total = bytes * rank.size;
      return {
        send: range(rank.alloc('send', total)),
        recv: range(rank.alloc('recv', total)),
        bytes,
        params: paramsOf(call),
      };
    },
    fill(rank: Rank, args: AlltoallArgs) {
      fillFresh(args.send, source(rank.id, 'send'));
      fillUninitialised(args.recv);
    },
    verify(args: AlltoallArgs[], call: OperationCall) {
      const n = args.length;
      const b = call.bytes;
      args.forEach((a, j) => {
        expectUnchanged(`${operation}: rank ${j} send`, a.send, source(j, 'send'), n * b);
        const blocks = args.map((_, i) => freshBlock(`block from rank ${i}`, i * b, source(i, 'send'), j * b, b));
        expectBlocks(`${operation}: rank ${j} recv`, a.recv, n * b, blocks);
      });
    },
  };
}

export const alltoallSemantics: OperationSemantics<AlltoallArgs> = {
  ...equalBlockAlltoall('alltoall'),
  returnsAtOnce: noBytes,
};

/**
 * counts[i][j]: bytes rank i sends to rank j. sendDispls[i][j]: where that block starts in rank i's
 * send buffer; recvDispls[j][i]: where it lands in rank j's receive buffer (both [owner][peer]).
 */
function layout(call: OperationCall, n: number) {
  const counts = pairCounts('alltoallv', call, n);
  const rows = (field: string, countsOf: (owner: number) => number[]) => {
    const flat = displsParam('alltoallv', call, field, n * n);
    return Array.from({ length: n }, (_, owner) =>
      flat ? flat.slice(owner * n, owner * n + n) : packed(countsOf(owner)),
    );
  };
  const sendCounts = (i: number) => counts[i];
  const recvCounts = (j: number) => counts.map((row) => row[j]);
  const sendDispls = rows('sendDispls', sendCounts);
  const recvDispls = rows('recvDispls', recvCounts);
  for (let j = 0; j < n; j++) checkDisjoint('alltoallv', `recvDispls (rank ${j})`, recvCounts(j), recvDispls[j]);
  return { counts, sendCounts, recvCounts, sendDispls, recvDispls };
}

export const alltoallvSemantics: OperationSemantics<AlltoallvArgs> = {
  operation: 'alltoallv',
  setup(rank: Rank, call: OperationCall): AlltoallvArgs {
    checkSize('alltoallv', call.bytes);
    const l = layout(call, rank.size);
    const me = rank.id;
    const sendCounts = l.sendCounts(me);
    const recvCounts = l.recvCounts(me);
    return {
      send: range(rank.alloc('send', extent(sendCounts, l.sendDispls[me]))),
      sendCounts,
      sendDispls: l.sendDispls[me],
      recv: range(rank.alloc('recv', extent(recvCounts, l.recvDispls[me]))),
      recvCounts,
      recvDispls: l.recvDispls[me],
      params: paramsOf(call),
    };
  },
  fill(rank: Rank, args: AlltoallvArgs) {
    fillFresh(args.send, source(rank.id, 'send'));
    fillUninitialised(args.recv);
  },
  verify(args: AlltoallvArgs[], call: OperationCall) {
    const l = layout(call, args.length);
    args.forEach((a, j) => {
      expectUnchanged(`alltoallv: rank ${j} send`, a.send, source(j, 'send'), extent(l.sendCounts(j), l.sendDispls[j]));
      const blocks = args.map((_, i) =>
        freshBlock(`block from rank ${i}`, l.recvDispls[j][i], source(i, 'send'), l.sendDispls[i][j], l.counts[i][j]),
      );
      expectBlocks(`alltoallv: rank ${j} recv`, a.recv, extent(l.recvCounts(j), l.recvDispls[j]), blocks);
    });
  },
};
