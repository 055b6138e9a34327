// MPI_Reduce and MPI_Allreduce: element-wise `op` (params.op, default 'sum') over every rank's send
// buffer, at the root (reduce) or at every rank (allreduce).
import { range } from '../../../sim/node/buffer.ts';
import type { Rank } from '../../../sim/node/rank-api.ts';
import type { OperationCall, OperationSemantics } from '../../semantics.ts';
import type { AllreduceArgs, ReduceArgs } from '../args.ts';
import { checkSize, fillFresh, fillUninitialised, source } from '../../fill.ts';
import { checkRoot, paramsOf, reduceOpOf } from './checks.ts';
import { expectBlocks, expectUnchanged, reducedBlock } from './expect.ts';
import { noBytes } from './mpi-entry.ts';

const sources = (n: number) => Array.from({ length: n }, (_, r) => source(r, 'send'));

export const reduceSemantics: OperationSemantics<ReduceArgs> = {
  operation: 'reduce',
  returnsAtOnce: noBytes,
  setup(rank: Rank, call: OperationCall): ReduceArgs {
    const bytes = checkSize('reduce', call.bytes);
    const root = checkRoot('reduce', call, rank.size);
    const op = reduceOpOf('reduce', call);
    const recv = rank.id === root ? range(rank.alloc('recv', bytes)) : undefined;
    return { send: range(rank.alloc('send', bytes)), recv, bytes, op, root, params: paramsOf(call) };
  },
  fill(rank: Rank, args: ReduceArgs) {
    fillFresh(args.send, source(rank.id, 'send'));
    if (args.recv) fillUninitialised(args.recv);
  },
  verify(args: ReduceArgs[], call: OperationCall) {
    const op = reduceOpOf('reduce', call);
    args.forEach((a, r) => expectUnchanged(`reduce: rank ${r} send`, a.send, source(r, 'send'), call.bytes));
    const all = sources(args.length);
    expectBlocks(`reduce: root ${call.root} recv`, args[call.root].recv, call.bytes, [
      reducedBlock(`${op} over all ${args.length} ranks`, 0, op, all, call.bytes),
    ]);
  },
};

export const allreduceSemantics: OperationSemantics<AllreduceArgs> = {
  operation: 'allreduce',
  returnsAtOnce: noBytes,
  setup(rank: Rank, call: OperationCall): AllreduceArgs {
    const bytes = checkSize('allreduce', call.bytes);
    const op = reduceOpOf('allreduce', call);
    return {
      send: range(rank.alloc('send', bytes)),
      recv: range(rank.alloc('recv', bytes)),
      bytes,
      op,
      params: paramsOf(call),
    };
  },
  fill(rank: Rank, args: AllreduceArgs) {
    fillFresh(args.send, source(rank.id, 'send'));
    fillUninitialised(args.recv);
  },
  verify(args: AllreduceArgs[], call: OperationCall) {
    const op = reduceOpOf('allreduce', call);
    const all = sources(args.length);
    const expected = [reducedBlock(`${op} over all ${args.length} ranks`, 0, op, all, call.bytes)];
    args.forEach((a, r) => {
      expectUnchanged(`allreduce: rank ${r} send`, a.send, source(r, 'send'), call.bytes);
      expectBlocks(`allreduce: rank ${r} recv`, a.recv, call.bytes, expected);
    });
  },
};
