// How a program declares the parameters it accepts. Algorithms declare theirs and the transports
// declare the ones that configure them (sim/kernel/transport-params.ts); scenarios check a user's
// values against these declarations, so the type lives below both.

export type ParamValue = number | string | boolean;

export interface ParamInfo {
  name: string;
  kind: 'bytes' | 'integer' | 'number' | 'boolean' | 'choice';
  default: ParamValue;
  description: string;
  /** Smallest accepted value for numeric kinds (inclusive). */
  min?: number;
  /** Largest accepted value of a numeric parameter (inclusive). */
  max?: number;
  choices?: string[];
  /** Words a `bytes` parameter accepts besides sizes, each meaning what its description says. */
  keywords?: string[];
}
