// The one error type for anything a user wrote wrong: a scenario, a machine file, hwloc XML, a CLI
// flag. It names the file, the line and column where known, and the field path, so the CLI can
// print one clear line and exit non-zero without a stack trace.

export interface InputLocation {
  file?: string;
  /** 1-based. */
  line?: number;
  /** 1-based. */
  column?: number;
  /** Field path inside the document, e.g. "sizes[2]" or "machine.preset". */
  field?: string;
}

export class InputError extends Error {
  readonly location: InputLocation;
  readonly detail: string;

  constructor(detail: string, location: InputLocation = {}) {
    super(formatInputError(detail, location));
    this.name = 'InputError';
    this.detail = detail;
    this.location = location;
  }
}

export function formatInputError(detail: string, loc: InputLocation): string {
  let where = loc.file ?? '';
  if (loc.line !== undefined) where += `${where ? ':' : 'line '}${loc.line}`;
  if (loc.line !== undefined && loc.column !== undefined) where += `:${loc.column}`;
  // A field alone (a command-line flag) reads as the flag; after a file, in parentheses.
  const field = loc.field ? (where ? ` (${loc.field})` : loc.field) : '';
  const prefix = where || field ? `${where}${field}: ` : '';
  return `${prefix}${detail}`;
}

/** Suggests the closest known name for a misspelt key (edit distance at most 2, or a shared prefix). */
export function didYouMean(word: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    const d = editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) {
      bestDistance = d;
      best = candidate;
    }
  }
  if (best === undefined) return undefined;
  const limit = Math.max(1, Math.min(2, Math.floor(best.length / 3)));
  if (bestDistance <= limit) return best;
  if (word.length >= 3 && best.toLowerCase().startsWith(word.toLowerCase())) return best;
  return undefined;
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return row[b.length];
}
