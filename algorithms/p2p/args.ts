// Each point-to-point benchmark operation's arguments, by operation name.
import type { AlltoallPairsArgs } from './alltoall-pairs.ts';
import type { KnemCopyArgs } from './knem-copy.ts';
import type { OneToAllArgs } from './onetoall.ts';
import type { PingPingArgs } from './pingping.ts';
import type { PingPongArgs } from './pingpong.ts';

export interface PointToPointArgs {
  pingpong: PingPongArgs;
  pingping: PingPingArgs;
  onetoall: OneToAllArgs;
  alltoallpairs: AlltoallPairsArgs;
  knemcopy: KnemCopyArgs;
}
