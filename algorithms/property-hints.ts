// How the property tests (test/collectives/driver.ts) draw cases for an algorithm, declared as
// plain data where the algorithm is defined: its family's index gives the runs every member gets
// (`testedWith`), the algorithm's own definition narrows them (fewer ranks for O(N^2) exchanges)
// or names the parameter values worth drawing. Every catalogued collective algorithm is
// property-tested; these only shape the draw.
import type { ParamValue } from '../sim/node/params.ts';
import type { Algorithm } from './algorithm.ts';

/** One property run: cases drawn on these machines, `numRuns` of them. */
export interface PropertyRun {
  /** Names the run in the test title. */
  label: string;
  /** Preset names, or "tiny:<packages>x<cores>" for the tests' hand-built machine. */
  machines: readonly string[];
  maxRanks: number;
  maxBytes: number;
  /** Cases per run in CI (PROPS=long multiplies it). */
  numRuns: number;
}

/** Values drawn for one parameter: some of `values`, or any integer of `integers`, or any choice. */
export interface ParamDraw {
  values?: readonly ParamValue[];
  integers?: { min: number; max: number };
  /** Any of the parameter's declared choices. */
  anyChoice?: boolean;
}

export interface PropertyHints {
  runs?: readonly PropertyRun[];
  /** Caps every run's communicator (O(N^2) messages or 2N sequential steps cost time). */
  maxRanks?: number;
  /** Caps every run's sizes. */
  maxBytes?: number;
  /** Replaces every run's case count. */
  numRuns?: number;
  /** Sizes to draw often besides the usual ones: a segment size and its neighbours. */
  sizes?: readonly number[];
  /** Parameters to vary; the others keep their default. */
  params?: Readonly<Record<string, ParamDraw>>;
}

/** The family's hints under every member's own (which win where both speak); a family's parameter
 *  draws reach only the members that declare the parameter. */
export function testedWith(family: PropertyHints, algorithms: readonly Algorithm[]): Algorithm[] {
  return algorithms.map((alg) => {
    const declared = Object.entries(family.params ?? {}).filter(([name]) => alg.params.some((p) => p.name === name));
    return {
      ...alg,
      test: { ...family, ...alg.test, params: { ...Object.fromEntries(declared), ...alg.test?.params } },
    };
  });
}
