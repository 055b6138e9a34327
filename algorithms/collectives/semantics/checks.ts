// Argument checks every operation's `setup` shares: the catalogue cannot check these (they depend on
// the communicator size or on the operation), so each failure names the field it is about.
import type { ReduceOp } from '../../../sim/node/rank-api.ts';
import type { OperationCall } from '../../semantics.ts';
import type { ParamValue } from '../../algorithm.ts';

export const REDUCE_OPS: readonly ReduceOp[] = ['sum', 'prod', 'max', 'min', 'band', 'bor'];

export function checkRoot(operation: string, call: OperationCall, size: number): number {
  if (!Number.isInteger(call.root) || call.root < 0 || call.root >= size) {
    throw new Error(
      `${operation}: root ${call.root} is outside the communicator of ${size} rank${size === 1 ? '' : 's'} (0..${size - 1})`,
    );
  }
  return call.root;
}

/** The reduction operator: `params.op`, 'sum' when absent. */
export function reduceOpOf(operation: string, call: OperationCall): ReduceOp {
  const op: ParamValue = call.params.op ?? 'sum';
  if (typeof op !== 'string' || !(REDUCE_OPS as readonly string[]).includes(op)) {
    throw new Error(`${operation}: params.op must be one of ${REDUCE_OPS.join(', ')}, got ${JSON.stringify(op)}`);
  }
  return op as ReduceOp;
}

/** A copy of the call's parameters, so an algorithm cannot change what the next rank's setup sees. */
export function paramsOf(call: OperationCall): Record<string, ParamValue> {
  return { ...call.params };
}
