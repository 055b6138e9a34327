// Colours and number formats every view shares.
import { interpolateYlOrRd, schemeTableau10 } from 'd3';
import { formatBytes } from '../../common/bytes.ts';

/** Step kinds in legend order; any other kind gets a colour of the same palette by its name. */
export const KINDS = [
  'copy',
  'kernel-copy',
  'reduce',
  'dma',
  'syscall',
  'pin',
  'lock-wait',
  'wait',
  'poll',
  'control',
  'queue',
];
const EXTRA = ['#8dd3c7', '#bebada', '#fb8072', '#80b1d3', '#fdb462'];

export function kindColour(kind: string): string {
  const i = KINDS.indexOf(kind);
  if (i >= 0) return i < schemeTableau10.length ? schemeTableau10[i] : EXTRA[i - schemeTableau10.length];
  let h = 0;
  for (const ch of kind) h = (h * 31 + ch.charCodeAt(0)) >>> 0;
  return EXTRA[h % EXTRA.length];
}

/** What an idle rank (no step under way) looks like on the timeline. */
export const IDLE_COLOUR = '#eef0f3';

/** Utilisation 0..1 as a colour from pale yellow to dark red; grey for unused. */
export function utilisationColour(u: number): string {
  return u <= 0 ? '#f4f4f4' : interpolateYlOrRd(0.15 + 0.85 * Math.min(1, u));
}

export function formatNs(ns: number): string {
  if (!Number.isFinite(ns)) return 'n/a';
  if (ns === 0) return '0';
  const short = (x: number, digits: number) => String(Number(x.toPrecision(digits)));
  if (Math.abs(ns) >= 1e6) return `${short(ns / 1e6, 4)} ms`;
  if (Math.abs(ns) >= 1e3) return `${short(ns / 1e3, 4)} µs`;
  return `${short(ns, 3)} ns`;
}

export function bytesLabel(bytes: number): string {
  return formatBytes(bytes, { space: true });
}

/** bytes/ns is GB/s. */
export function bandwidthLabel(bytesPerNs: number): string {
  return `${Number(bytesPerNs.toPrecision(3))} GB/s`;
}
