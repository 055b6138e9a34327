// The driver's state for one run: one context per rank (opened on first use), and the declared
// regions indexed by cookie. Lookups apply the driver's checks and return its errno.
import { CANONICAL_STATE, type HasCanonicalState } from '../../../common/state-fingerprint.ts';
import type { Range } from '../../node/buffer.ts';
import { MechanismError } from '../../node/errors.ts';
import type { KnemCookie } from '../../node/rank-api.ts';
import type { World } from '../../node/world.ts';
import { RunState } from '../../node/run-state.ts';
import { cookieContext, describeCookie, makeCookie } from './cookie.ts';

export interface Region {
  cookie: KnemCookie;
  /** Rank whose context created the region; only it may destroy the region. */
  creator: number;
  segments: Range[];
  bytes: number;
  read: boolean;
  write: boolean;
  singleUse: boolean;
}

interface Context {
  id: number;
  rank: number;
  nextRegion: number;
}

export type Access = 'read' | 'write';

export class KnemDriver implements HasCanonicalState {
  private readonly contexts = new Map<number, Context>();
  private nextContext = 1;
  private readonly regions = new Map<KnemCookie, Region>();

  /**
   * A context's next region number only keeps cookies unique: what the driver does depends on the
   * regions declared now, whose cookies (and so their numbers) are in `regions`.
   */
  [CANONICAL_STATE](): unknown {
    return {
      contexts: [...this.contexts].map(([rank, c]) => [rank, c.id]),
      nextContext: this.nextContext,
      regions: this.regions,
    };
  }

  contextOf(rank: number): Context {
    let ctx = this.contexts.get(rank);
    if (!ctx) {
      ctx = { id: this.nextContext++, rank, nextRegion: 1 };
      this.contexts.set(rank, ctx);
    }
    return ctx;
  }

  declare(rank: number, segments: Range[], opts: { read: boolean; write: boolean; singleUse: boolean }): Region {
    const ctx = this.contextOf(rank);
    // Region ids are never reused within a context, so a stale cookie can never alias a new region.
    const cookie = makeCookie(ctx.id, ctx.nextRegion++);
    const region: Region = {
      cookie,
      creator: rank,
      segments: segments.map((s) => ({ ...s })),
      bytes: segments.reduce((sum, s) => sum + s.bytes, 0),
      ...opts,
    };
    this.regions.set(cookie, region);
    return region;
  }

  /** The region behind a cookie, or ENOENT: unknown, destroyed, or single use already consumed. */
  find(cookie: KnemCookie, what: string): Region {
    const region = typeof cookie === 'bigint' ? this.regions.get(cookie) : undefined;
    if (!region) {
      const ctx = typeof cookie === 'bigint' ? cookieContext(cookie) : NaN;
      const why = [...this.contexts.values()].some((c) => c.id === ctx)
        ? 'no such region in that context'
        : 'no such context';
      throw new MechanismError(
        'knem',
        'ENOENT',
        `${what}: cookie ${typeof cookie === 'bigint' ? describeCookie(cookie) : String(cookie)}: ${why}`,
      );
    }
    return region;
  }

  /**
   * Checks an access to [offset, offset+bytes) of the region, then consumes a single-use region so
   * nobody else can reach it (the driver removes it from the radix tree when found, §4.1). A
   * refused access consumes nothing.
   */
  access(cookie: KnemCookie, access: Access, offset: number, bytes: number, what: string): Region {
    const region = this.check(cookie, access, offset, bytes, what);
    this.consume(region);
    return region;
  }

  /** The checks of `access` without consuming anything (a region copy checks both sides first). */
  check(cookie: KnemCookie, access: Access, offset: number, bytes: number, what: string): Region {
    const region = this.find(cookie, what);
    if (access === 'read' && !region.read) {
      throw new MechanismError('knem', 'EACCES', `${what}: region ${describeCookie(cookie)} was not declared readable`);
    }
    if (access === 'write' && !region.write) {
      throw new MechanismError('knem', 'EACCES', `${what}: region ${describeCookie(cookie)} was not declared writable`);
    }
    if (!Number.isInteger(offset) || offset < 0 || offset + bytes > region.bytes) {
      throw new MechanismError(
        'knem',
        'EINVAL',
        `${what}: bytes [${offset}, ${offset + bytes}) outside region ${describeCookie(cookie)} of ${region.bytes} bytes`,
      );
    }
    return region;
  }

  consume(region: Region): void {
    if (region.singleUse) this.regions.delete(region.cookie);
  }

  destroy(rank: number, cookie: KnemCookie): void {
    const region = this.find(cookie, 'destroy region');
    if (region.creator !== rank) {
      throw new MechanismError(
        'knem',
        'EPERM',
        `destroy region ${describeCookie(cookie)}: created by rank ${region.creator}, not rank ${rank}`,
      );
    }
    this.regions.delete(cookie);
  }

  get liveRegions(): number {
    return this.regions.size;
  }
}

const DRIVER = new RunState('knem driver', () => new KnemDriver());

export function knemDriver(world: World): KnemDriver {
  return world.stateOf(DRIVER);
}
