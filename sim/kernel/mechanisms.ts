// Binds every transport and kernel mechanism to one rank. Point-to-point goes through the plain
// shared-memory double copy; the single-copy mechanisms report ENODEV where the kernel lacks them.
import { wait, type Program } from '../engine/program.ts';
import type { Process } from '../engine/simulation.ts';
import type { Range } from '../node/buffer.ts';
import type { Cma, Knem, Limic, PointToPoint, Xpmem } from '../node/rank-api.ts';
import { MechanismError } from '../node/errors.ts';
import type { World } from '../node/world.ts';
import { shmRecv, shmSend } from './shm-pipeline.ts';
import { createKnem } from './knem/index.ts';
import { createCma } from './cma.ts';
import { createXpmem } from './xpmem/index.ts';
import { createLimic } from './limic.ts';

export interface RankMechanisms {
  p2p: PointToPoint;
  knem: Knem;
  cma: Cma;
  xpmem: Xpmem;
  limic: Limic;
}

export function mechanismsFor(world: World, me: number, options: Record<string, unknown>): RankMechanisms {
  const available = world.node.spec.kernel.mechanisms;
  return {
    p2p: shmPointToPoint(world, me),
    knem: available.knem ? createKnem(world, me) : absent<Knem>('knem'),
    cma: createCma(world, me),
    xpmem: available.xpmem
      ? createXpmem(world, me, { registrationCache: options.regcache !== false, cacheCapacity: numberOption(options.regcacheCapacity) })
      : absent<Xpmem>('xpmem'),
    limic: available.limic ? createLimic(world, me) : absent<Limic>('limic'),
  };
}

function numberOption(v: unknown): number | undefined {
  return typeof v === 'number' ? v : undefined;
}

function shmPointToPoint(world: World, me: number): PointToPoint {
  const p2p: PointToPoint = {
    send: (to, data, tag = 0) => shmSend(world, me, to, data, tag),
    recv: (from, into, tag = 0) => shmRecv(world, me, from, into, tag),
    *sendrecv(to: number, data: Range, from: number, into: Range, tag = 0): Program<void> {
      const send = world.sim.spawn(`r${me} sendrecv->${to}`, shmSend(world, me, to, data, tag));
      yield* shmRecv(world, me, from, into, tag);
      yield* waitFor(send);
    },
    *isend(to: number, data: Range, tag = 0) {
      const proc = world.sim.spawn(`r${me} isend->${to}`, shmSend(world, me, to, data, tag));
      return () => waitFor(proc);
    },
    *irecv(from: number, into: Range, tag = 0) {
      const proc = world.sim.spawn(`r${me} irecv<-${from}`, shmRecv(world, me, from, into, tag));
      return () => waitFor(proc);
    },
  };
  return p2p;
}

function* waitFor(proc: Process<void>): Program<void> {
  yield* wait(proc);
}

/** A mechanism this build of the node does not offer: every call fails as the missing driver would. */
function absent<T extends object>(name: string): T {
  return new Proxy({} as T, {
    get: (_target, prop) => {
      if (typeof prop !== 'string') return undefined;
      // eslint-disable-next-line require-yield
      return function* (): Program<never> {
        throw new MechanismError(name, 'ENODEV', `${prop}: this node has no ${name}`);
      };
    },
  });
}
