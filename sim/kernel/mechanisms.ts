// Binds every transport and kernel mechanism to one rank. Point-to-point picks, per message, the
// shared-memory double copy or a single-copy mechanism by size; the single-copy mechanisms report
// ENODEV where the kernel lacks them, as the missing driver would.
import type { Program } from '../engine/program.ts';
import type { Cma, Knem, Limic, PointToPoint, Xpmem } from '../node/rank-api.ts';
import { MechanismError } from '../node/errors.ts';
import type { World } from '../node/world.ts';
import { createKnem } from './knem/index.ts';
import { createCma } from './cma.ts';
import { createXpmem } from './xpmem/index.ts';
import { createLimic } from './limic.ts';
import { createPointToPoint, parsePointToPointOptions } from './p2p.ts';

export interface RankMechanisms {
  p2p: PointToPoint;
  knem: Knem;
  cma: Cma;
  xpmem: Xpmem;
  limic: Limic;
}

/** `options` are the run's parameters: `shm`, `single`, `singleThreshold` choose the point-to-point
 *  transport; `regcache` and `regcacheCapacity` configure XPMEM's registration cache. */
export function mechanismsFor(world: World, me: number, options: Record<string, unknown>): RankMechanisms {
  const available = world.node.spec.kernel.mechanisms;
  const single = {
    knem: available.knem ? createKnem(world, me) : absent<Knem>('knem'),
    cma: createCma(world, me),
    xpmem: available.xpmem
      ? createXpmem(world, me, {
          registrationCache: options.regcache !== false,
          cacheCapacity: numberOption(options.regcacheCapacity),
        })
      : absent<Xpmem>('xpmem'),
    limic: available.limic ? createLimic(world, me) : absent<Limic>('limic'),
  };
  const p2p = createPointToPoint(world, me, { ...parsePointToPointOptions(options), mechanisms: single });
  return { p2p, ...single };
}

function numberOption(v: unknown): number | undefined {
  return typeof v === 'number' ? v : undefined;
}

/** A mechanism this node does not offer: every call fails as the missing driver would. */
function absent<T extends object>(name: string): T {
  return new Proxy({} as T, {
    get: (_target, prop) => {
      if (typeof prop !== 'string') return undefined;
      return function* (): Program<never> {
        throw new MechanismError(name, 'ENODEV', `${prop}: this node has no ${name}`);
      };
    },
  });
}
