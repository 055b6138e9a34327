// Buffer checks shared by the point-to-point benchmarks' semantics (filling: ../fill.ts).
import type { Content } from '../../sim/node/content.ts';
import type { Range } from '../../sim/node/rank-api.ts';

/** Throws naming the buffer and what it holds when `r`'s whole buffer is not `expected`. */
export function expectHolds(what: string, r: Range, expected: Content): void {
  if (!r.buf.content.equals(expected)) {
    throw new Error(`${what} holds ${r.buf.content.describe()}, expected ${expected.describe()}`);
  }
}
