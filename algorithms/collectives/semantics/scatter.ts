// MPI_Scatter and MPI_Scatterv: block r of the root's send buffer reaches rank r's receive buffer.
import { range } from '../../../sim/node/buffer.ts';
import type { Rank } from '../../../sim/node/rank-api.ts';
import type { OperationCall, OperationSemantics } from '../../semantics.ts';
import type { ScatterArgs, ScattervArgs } from '../args.ts';
import { checkSize, fillFresh, fillUninitialised, source } from '../../fill.ts';
import { checkRoot, paramsOf } from './checks.ts';
import { expectBlocks, expectUnchanged, freshBlock } from './expect.ts';
import { vLayout } from './vcounts.ts';

export const scatterSemantics: OperationSemantics<ScatterArgs> = {
  operation: 'scatter',
  setup(rank: Rank, call: OperationCall): ScatterArgs {
    const bytes = checkSize('scatter', call.bytes);
    const root = checkRoot('scatter', call, rank.size);
    const send = rank.id === root ? range(rank.alloc('send', bytes * rank.size)) : undefined;
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
      expectBlocks(`scatter: rank ${r} recv`, a.recv, call.bytes, [freshBlock(`block ${r} of the root's send`, 0, src, r * call.bytes, call.bytes)]),
    );
  },
};

// The root reads its send buffer only, so MPI lets send blocks overlap.
const layout = (call: OperationCall, n: number) => vLayout('scatterv', call, n, false);

export const scattervSemantics: OperationSemantics<ScattervArgs> = {
  operation: 'scatterv',
  setup(rank: Rank, call: OperationCall): ScattervArgs {
    checkSize('scatterv', call.bytes);
    const root = checkRoot('scatterv', call, rank.size);
    const { counts, displs, bytes: sendBytes } = layout(call, rank.size);
    const send = rank.id === root ? range(rank.alloc('send', sendBytes)) : undefined;
    return { send, counts, displs, recv: range(rank.alloc('recv', counts[rank.id])), root, params: paramsOf(call) };
  },
  fill(rank: Rank, args: ScattervArgs) {
    if (args.send) fillFresh(args.send, source(rank.id, 'send'));
    fillUninitialised(args.recv);
  },
  verify(args: ScattervArgs[], call: OperationCall) {
    const { counts, displs, bytes: sendBytes } = layout(call, args.length);
    const src = source(call.root, 'send');
    expectUnchanged(`scatterv: root ${call.root} send`, args[call.root].send, src, sendBytes);
    args.forEach((a, r) =>
      expectBlocks(`scatterv: rank ${r} recv`, a.recv, counts[r], [freshBlock(`block ${r} of the root's send`, 0, src, displs[r], counts[r])]),
    );
  },
};
