// The size span a claim speaks of, FROM..TO, both ends included: read the same way in a measure's
// `over` and in a figure of a `missing` text.
import type { SizeSpan } from './claim.ts';
import { parseSize, SizeError } from './scenario-adapter.ts';

/** The span `text` writes, FROM..TO with FROM not larger than TO; a SizeError says what is wrong. */
export function parseSpan(text: string): SizeSpan {
  const parts = text.split('..');
  if (parts.length !== 2) throw new SizeError(`a size range is FROM..TO, e.g. 16KiB..4MiB; got '${text}'`);
  const [from, to] = parts.map((p) => parseSize(p.trim()));
  if (from > to) throw new SizeError(`the size range ${text} is empty (FROM is larger than TO)`);
  return { from, to };
}
