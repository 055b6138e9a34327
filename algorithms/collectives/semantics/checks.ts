// Argument checks every operation's `setup` shares: the registry cannot check these (they depend on
// the communicator size or on the operation), so each failure names the field it is about.
import type { Range, ReduceOp } from '../../../sim/node/rank-api.ts';
import { Content } from '../../../sim/node/content.ts';
import type { OperationCall } from '../../semantics.ts';
import type { ParamValue } from '../../registry.ts';

export const REDUCE_OPS: readonly ReduceOp[] = ['sum', 'prod', 'max', 'min', 'band', 'bor'];

/** Name of the content source a rank's input buffer holds, e.g. "r3.send". */
export function source(rank: number, buffer: string): string {
  return `r${rank}.${buffer}`;
}

export function checkBytes(operation: string, call: OperationCall): number {
  if (!Number.isInteger(call.bytes) || call.bytes < 0) {
    throw new Error(`${operation}: bytes must be a non-negative integer, got ${call.bytes}`);
  }
  return call.bytes;
}

export function checkRoot(operation: string, call: OperationCall, size: number): number {
  if (!Number.isInteger(call.root) || call.root < 0 || call.root >= size) {
    throw new Error(`${operation}: root ${call.root} is outside the communicator of ${size} rank${size === 1 ? '' : 's'} (0..${size - 1})`);
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

// Buffers are always allocated to the exact size and handed out as ranges over the whole buffer,
// so refilling replaces the whole content.
export function fillFresh(r: Range, src: string): void {
  r.buf.content = Content.fresh(r.buf.size, src);
}

export function fillUninitialised(r: Range): void {
  r.buf.content = Content.uninitialised(r.buf.size);
}
