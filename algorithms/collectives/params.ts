// Reading a collective algorithm's integer parameters: the given value, else the declared default,
// checked against the declared minimum; a failure names the algorithm and the field. Two wordings
// of the same check, as the families' messages have always read.
import type { ParamInfo, ParamValue } from '../algorithm.ts';

/** "<algorithm>: params.<name> must be an integer >= <min>" (tuned and sm families). */
export function intParam(params: Record<string, ParamValue>, info: ParamInfo, algorithm: string): number {
  const raw = params[info.name] ?? info.default;
  if (typeof raw !== 'number' || !Number.isInteger(raw) || raw < (info.min ?? -Infinity)) {
    const floor = info.min === undefined ? '' : ` >= ${info.min}`;
    throw new Error(`${algorithm}: params.${info.name} must be an integer${floor}, got ${JSON.stringify(raw)}`);
  }
  return raw;
}

/** "<algorithm>: params.<name> must be a whole number [of bytes], at least <min>" (KNEM and CMA families). */
export function wholeParam(params: Record<string, ParamValue>, info: ParamInfo, algorithm: string): number {
  const value = params[info.name] ?? info.default;
  const min = info.min ?? 1;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
    const unit = info.kind === 'bytes' ? ' of bytes' : '';
    throw new Error(
      `${algorithm}: params.${info.name} must be a whole number${unit}, at least ${min}, got ${JSON.stringify(value)}`,
    );
  }
  return value;
}
