// The view in the URL's fragment, so it can be shared: the scenario text, the machine chosen in
// place of the scenario's, the what-if edits, the open view, the picked point, and the comparison's
// sweep table and baseline.
import type { MachineEdit } from './protocol.ts';

export interface UrlState {
  scenario?: string;
  machine?: string;
  edits: MachineEdit[];
  tab?: string;
  /** `o3` or `w3`: point 3 of the original or of the what-if run. */
  pick?: string;
  /** The comparison's sweep table (its index in the sweep), when not the first. */
  table?: number;
  /** The comparison's baseline, when not the scenario's. */
  baseline?: string;
}

export function encodeState(s: UrlState): string {
  const params = new URLSearchParams();
  if (s.scenario !== undefined) params.set('s', toBase64Url(s.scenario));
  if (s.machine) params.set('m', s.machine);
  if (s.edits.length > 0) params.set('e', toBase64Url(JSON.stringify(s.edits)));
  if (s.tab) params.set('v', s.tab);
  if (s.pick) params.set('p', s.pick);
  if (s.table) params.set('t', String(s.table));
  if (s.baseline) params.set('b', s.baseline);
  return params.toString();
}

/**
 * Reads a fragment; what cannot be read is left out and named in `problems`. `tabs` are the views a
 * link may open.
 */
export function decodeState(fragment: string, tabs: readonly string[]): UrlState & { problems: string[] } {
  const params = new URLSearchParams(fragment.replace(/^#/, ''));
  const out: UrlState & { problems: string[] } = { edits: [], problems: [] };
  const s = params.get('s');
  if (s !== null) {
    try {
      out.scenario = fromBase64Url(s);
    } catch {
      out.problems.push('the scenario in the link (s=) is not valid base64url');
    }
  }
  const m = params.get('m');
  if (m) out.machine = m;
  const e = params.get('e');
  if (e !== null) {
    try {
      const edits = JSON.parse(fromBase64Url(e)) as unknown;
      if (!Array.isArray(edits) || !edits.every(isEdit)) throw new Error('not a list of edits');
      out.edits = edits;
    } catch {
      out.problems.push('the machine edits in the link (e=) cannot be read');
    }
  }
  const v = params.get('v');
  if (v !== null) {
    if (tabs.includes(v)) out.tab = v;
    else out.problems.push(`the view in the link (v=${v}) is not one of ${tabs.join(', ')}`);
  }
  const p = params.get('p');
  if (p !== null) {
    if (/^[ow]\d+$/.test(p)) out.pick = p;
    else out.problems.push(`the picked point in the link (p=${p}) cannot be read`);
  }
  const t = params.get('t');
  if (t !== null) {
    if (/^\d+$/.test(t)) out.table = Number(t);
    else out.problems.push(`the sweep table in the link (t=${t}) cannot be read`);
  }
  const b = params.get('b');
  if (b) out.baseline = b;
  return out;
}

function isEdit(x: unknown): x is MachineEdit {
  if (typeof x !== 'object' || x === null) return false;
  const e = x as Record<string, unknown>;
  return (
    ['link', 'cache', 'numa', 'copy', 'controllers'].includes(String(e.kind)) &&
    typeof e.id === 'string' &&
    typeof e.value === 'number'
  );
}

function toBase64Url(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): string {
  const bin = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(bin, (c) => c.charCodeAt(0)));
}
