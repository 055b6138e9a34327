// Every operation by name, with the arguments its algorithms receive: the one map the algorithm
// definitions, the semantics and the harness are typed by.
import type { CollectiveArgs } from './collectives/args.ts';
import type { PointToPointArgs } from './p2p/args.ts';

export interface OperationArgs extends CollectiveArgs, PointToPointArgs {}

export type OperationName = keyof OperationArgs;

export type ArgsOf<Op extends OperationName> = OperationArgs[Op];

export interface OperationInfo {
  name: string;
  description: string;
  /** Whether the operation has a root rank. */
  rooted: boolean;
  /** v-variants: one count per rank, or one per (sender, receiver) pair as alltoallv. */
  counts?: 'per-rank' | 'per-pair';
  /** The fewest ranks it is defined for (a ping-pong needs a peer); any number if absent. */
  minRanks?: number;
  /** It moves no data (a barrier): a scenario gives it no sizes, or only 0. */
  sizeless?: boolean;
}
