// KNEM cookies: 64-bit opaque identifiers that carry the context and the region they name, so the
// driver can check both (Goglin & Moreaud, JPDC 2013, §4.2). Ids are handed out in order of first
// use, which the event queue makes deterministic for a given run.
import type { KnemCookie } from '../../node/rank-api.ts';

const REGION_BITS = 32n;
const REGION_MASK = (1n << REGION_BITS) - 1n;

export function makeCookie(context: number, region: number): KnemCookie {
  return (BigInt(context) << REGION_BITS) | BigInt(region);
}

export function cookieContext(cookie: KnemCookie): number {
  return Number(cookie >> REGION_BITS);
}

export function cookieRegion(cookie: KnemCookie): number {
  return Number(cookie & REGION_MASK);
}

export function describeCookie(cookie: KnemCookie): string {
  return `0x${cookie.toString(16).padStart(16, '0')}`;
}
