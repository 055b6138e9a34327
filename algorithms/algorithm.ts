// What defines an algorithm: its name ("bcast:knem-linear"), its parameters and its event program,
// typed by the operation it implements. Definitions are plain values; algorithms/catalogue.ts lists
// them, so scenarios, the CLI and the property tests enumerate them without knowing any module.
import type { Program } from '../sim/engine/program.ts';
import type { ParamInfo, ParamValue } from '../sim/node/params.ts';
import type { Rank } from '../sim/node/rank-api.ts';
import type { SingleCopyMechanism } from '../sim/node/single-copy-descriptor.ts';
import type { ArgsOf, OperationName } from './operations.ts';
import type { PropertyHints } from './property-hints.ts';

export type { ParamInfo, ParamValue };

/** What every consumer of a definition may read without knowing its operation's argument type. */
export interface AlgorithmMeta {
  /** Full name, "<operation>:<algorithm>". */
  name: string;
  operation: string;
  /** One line for `intranode algorithms`. */
  description: string;
  params: ParamInfo[];
  /** The one communicator size it is defined for (Open MPI's two-process algorithms); any if absent. */
  ranks?: number;
  /** How the property tests draw cases for it, when the defaults do not fit. */
  test?: PropertyHints;
  /** The kernel mechanisms its program calls itself with these parameters (each at least once in
   *  a call with bytes to move between ranks), besides the one point-to-point may take through
   *  `single`; none when absent. */
  mechanisms?: (params: Record<string, ParamValue>) => readonly SingleCopyMechanism[];
  /** Whether its program sends point-to-point messages with these parameters, which `single` may
   *  put on a kernel mechanism; true when absent (the safe answer: a mechanism's options are then
   *  accepted with `single` naming it). A mechanism's own parameters (XPMEM's `regcache`) are
   *  refused for an algorithm that calls it neither way, where they would change nothing. */
  pointToPoint?: (params: Record<string, ParamValue>) => boolean;
}

export type AlgorithmProgram<Op extends OperationName> = (rank: Rank, args: ArgsOf<Op>) => Program<void>;

/** An algorithm of operation `Op`, its program typed by that operation's arguments. */
export interface AlgorithmInfo<Op extends OperationName> extends AlgorithmMeta {
  operation: Op;
  program: AlgorithmProgram<Op>;
}

/**
 * An algorithm of some operation, as lists of mixed operations hold it. Its program is reached
 * through `open`, which hands the typed definition to a function generic over the operation, so
 * the program is never called with another operation's arguments.
 */
export interface Algorithm extends AlgorithmMeta {
  operation: OperationName;
  open<R>(use: <Op extends OperationName>(info: AlgorithmInfo<Op>) => R): R;
}

/** The typed definition, also usable as an `Algorithm` in a family's list. */
export type Defined<Op extends OperationName> = AlgorithmInfo<Op> & Algorithm;

export function defineAlgorithm<Op extends OperationName>(info: AlgorithmInfo<Op>): Defined<Op> {
  if (!info.name.startsWith(`${info.operation}:`))
    throw new Error(`algorithm ${info.name} must be named ${info.operation}:<name>`);
  return { ...info, open: (use) => use(info) };
}

/** The algorithms of a family none of which sends a point-to-point message (their data moves
 *  through shared memory of their own or a kernel mechanism, their flags as control messages). */
export function withoutPointToPoint(algorithms: readonly Algorithm[]): Algorithm[] {
  return declaring({ pointToPoint: () => false }, algorithms);
}

/** The algorithms of a family all of which call `mechanism` themselves and send no point-to-point
 *  message, so declared. */
export function calling(mechanism: SingleCopyMechanism, algorithms: readonly Algorithm[]): Algorithm[] {
  return declaring({ mechanisms: () => [mechanism], pointToPoint: () => false }, algorithms);
}

/** `algorithms`, each declaring `uses` (what it calls and sends). */
function declaring(
  uses: Pick<AlgorithmMeta, 'mechanisms' | 'pointToPoint'>,
  algorithms: readonly Algorithm[],
): Algorithm[] {
  return algorithms.map((alg) => alg.open((info): Algorithm => defineAlgorithm({ ...info, ...uses })));
}

/** The algorithm's name within its operation: "binomial" for "bcast:binomial". */
export function shortName(info: AlgorithmMeta): string {
  return info.name.slice(info.operation.length + 1);
}

/** Every parameter the algorithm declares, at its default. */
export function paramDefaults(info: AlgorithmMeta): Record<string, ParamValue> {
  return Object.fromEntries(info.params.map((p) => [p.name, p.default]));
}
