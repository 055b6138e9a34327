// The pipeline segment size of the hierarchical KNEM collectives.
import type { ParamInfo, ParamValue } from '../../algorithm.ts';
import type { PropertyHints } from '../../property-hints.ts';
import { wholeParam } from '../params.ts';

/** Ma et al. 2010 (seed 000), §VI.B: 256 KB "performs adequately on the entire range of message
 *  sizes" on IG; 64 KB was best below 2 MB, 128-512 KB above. */
export const DEFAULT_SEGMENT_BYTES = 256 * 1024;

export const segmentParam: ParamInfo = {
  name: 'segment',
  kind: 'bytes',
  default: DEFAULT_SEGMENT_BYTES,
  min: 1,
  description: 'pipeline segment size from leader to leaves (bytes)',
};

/** `params.segment`, its default when absent; an Error naming the field when it is not a size. */
export function segmentOf(algorithm: string, params: Record<string, ParamValue>): number {
  return wholeParam(params, segmentParam, algorithm);
}

/** Property-test draws of the hierarchical collectives: any segment size, sizes around a segment. */
export const HIERARCHICAL_TEST: PropertyHints = {
  numRuns: 15,
  sizes: [1023, 1024, 1025, 2048, 3000, 4095, 4097],
  params: { segment: { values: [1024, 4096, DEFAULT_SEGMENT_BYTES], integers: { min: 300, max: 9000 } } },
};
