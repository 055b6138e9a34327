// MPI_Scatter and MPI_Scatterv: block r of the root's send buffer reaches rank r's receive buffer.
import { range } from '../../../sim/node/buffer.ts';
import type { Rank } from '../../../sim/node/rank-api.ts';
import type { OperationCall, OperationSemantics } from '../../semantics.ts';
import type { ScatterArgs, ScattervArgs } from '../args.ts';
import { fillFresh, fillUninitialised, source } from '../../fill.ts';
import { paramsOf } from './checks.ts';
import { expectBlocks, expectUnchanged, freshBlock } from './expect.ts';
import { rootedLayout, setupRooted, setupRootedV } from './rooted.ts';
import { noBytes } from './mpi-entry.ts';

export const scatterSemantics: OperationSemantics<ScatterArgs> = {
  operation: 'scatter',
  returnsAtOnce: noBytes,
  setup(rank: Rank, call: OperationCall): ScatterArgs {
    const { bytes, root, rooted: send } = setupRooted(rank, call, 'scatter');
    return { send, recv: range(rank.alloc('recv', bytes)), bytes, root, params: paramsOf(call) };
  },
  fill(rank: Rank, args: ScatterArgs) {
    if (args.send) fillFresh(args.send, source(rank.id, 'send'));
    fillUninitialised(args.recv);
  },
  verify(args: ScatterArgs[], call: OperationCall) {
    const src = source(call.root, 'send');
    const n = args.length;
    expectUnchanged(`scatter: root ${call.root} send`, args[call.root].send, src, n * call.bytes);
    args.forEach((a, r) =>
      expectBlocks(`scatter: rank ${r} recv`, a.recv, call.bytes, [
        freshBlock(`block ${r} of the root's send`, 0, src, r * call.bytes, call.bytes),
      ]),
    );
  },
};

export const scattervSemantics: OperationSemantics<ScattervArgs> = {
  operation: 'scatterv',
  setup(rank: Rank, call: OperationCall): ScattervArgs {
    const { root, counts, displs, rooted: send } = setupRootedV(rank, call, 'scatterv');
    return { send, counts, displs, recv: range(rank.alloc('recv', counts[rank.id])), root, params: paramsOf(call) };
  },
  fill(rank: Rank, args: ScattervArgs) {
    if (args.send) fillFresh(args.send, source(rank.id, 'send'));
    fillUninitialised(args.recv);
  },
  verify(args: ScattervArgs[], call: OperationCall) {
    const { counts, displs, bytes: sendBytes } = rootedLayout('scatterv', call, args.length);
    const src = source(call.root, 'send');
    expectUnchanged(`scatterv: root ${call.root} send`, args[call.root].send, src, sendBytes);
    args.forEach((a, r) =>
      expectBlocks(`scatterv: rank ${r} recv`, a.recv, counts[r], [
        freshBlock(`block ${r} of the root's send`, 0, src, displs[r], counts[r]),
      ]),
    );
  },
};
