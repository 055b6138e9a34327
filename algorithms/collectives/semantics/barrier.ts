// MPI_Barrier: no data. That no rank leaves before every rank has entered is a property of the
// timing, which the property driver checks by staggering arrivals (test/collectives/driver.ts).
import type { Rank } from '../../../sim/node/rank-api.ts';
import type { OperationCall, OperationSemantics } from '../../semantics.ts';
import type { BarrierArgs } from '../args.ts';
import { paramsOf } from './checks.ts';

export const barrierSemantics: OperationSemantics<BarrierArgs> = {
  operation: 'barrier',
  setup(_rank: Rank, call: OperationCall): BarrierArgs {
    return { params: paramsOf(call) };
  },
  fill() {},
  verify() {},
};
