// MPI_Allgather and MPI_Allgatherv: every rank's receive buffer holds every rank's send buffer, in
// rank order (allgatherv: at each rank's displacement).
import { range } from '../../../sim/node/buffer.ts';
import type { Rank } from '../../../sim/node/rank-api.ts';
import type { OperationCall, OperationSemantics } from '../../semantics.ts';
import type { AllgatherArgs, AllgathervArgs } from '../args.ts';
import { checkSize, fillFresh, fillUninitialised, source } from '../../fill.ts';
import { paramsOf } from './checks.ts';
import { expectBlocks, expectUnchanged, freshBlock } from './expect.ts';
import { vLayout } from './vcounts.ts';
import { noBytes, noCounts } from './mpi-entry.ts';

export const allgatherSemantics: OperationSemantics<AllgatherArgs> = {
  operation: 'allgather',
  returnsAtOnce: noBytes,
  setup(rank: Rank, call: OperationCall): AllgatherArgs {
    const bytes = checkSize('allgather', call.bytes);
    return {
      send: range(rank.alloc('send', bytes)),
      recv: range(rank.alloc('recv', bytes * rank.size)),
      bytes,
      params: paramsOf(call),
    };
  },
  fill(rank: Rank, args: AllgatherArgs) {
    fillFresh(args.send, source(rank.id, 'send'));
    fillUninitialised(args.recv);
  },
  verify(args: AllgatherArgs[], call: OperationCall) {
    const n = args.length;
    const blocks = args.map((_, r) =>
      freshBlock(`block from rank ${r}`, r * call.bytes, source(r, 'send'), 0, call.bytes),
    );
    args.forEach((a, r) => {
      expectUnchanged(`allgather: rank ${r} send`, a.send, source(r, 'send'), call.bytes);
      expectBlocks(`allgather: rank ${r} recv`, a.recv, n * call.bytes, blocks);
    });
  },
};

const layout = (call: OperationCall, n: number) => vLayout('allgatherv', call, n, true);

export const allgathervSemantics: OperationSemantics<AllgathervArgs> = {
  operation: 'allgatherv',
  returnsAtOnce: noCounts,
  setup(rank: Rank, call: OperationCall): AllgathervArgs {
    checkSize('allgatherv', call.bytes);
    const { counts, displs, bytes: recvBytes } = layout(call, rank.size);
    return {
      send: range(rank.alloc('send', counts[rank.id])),
      recv: range(rank.alloc('recv', recvBytes)),
      counts,
      displs,
      params: paramsOf(call),
    };
  },
  fill(rank: Rank, args: AllgathervArgs) {
    fillFresh(args.send, source(rank.id, 'send'));
    fillUninitialised(args.recv);
  },
  verify(args: AllgathervArgs[], call: OperationCall) {
    const { counts, displs, bytes: recvBytes } = layout(call, args.length);
    const blocks = args.map((_, r) => freshBlock(`block from rank ${r}`, displs[r], source(r, 'send'), 0, counts[r]));
    args.forEach((a, r) => {
      expectUnchanged(`allgatherv: rank ${r} send`, a.send, source(r, 'send'), counts[r]);
      expectBlocks(`allgatherv: rank ${r} recv`, a.recv, recvBytes, blocks);
    });
  },
};
