// XPMEM and its registration cache, for mechanisms.ts.
export { createXpmem, xpmemCacheStats, type XpmemOptions, type XpmemWithStats } from './xpmem.ts';
export type { RegistrationCacheStats } from './registration-cache.ts';
