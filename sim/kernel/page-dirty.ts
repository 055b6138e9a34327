// Pages the kernel writes through its own mapping of them (pinned with get_user_pages, copied into
// with kmap) must be marked dirty before they are released, or the write could be lost when the
// page is reclaimed: set_page_dirty_lock() takes the page lock, sets PG_dirty and unlocks, three
// atomic operations on the page's struct page (mm/page-writeback.c; process_vm_rw_pages() calls it
// for every page a process_vm_writev wrote, mm/process_vm_access.c; KNEM releases the pages it
// copied into the same way). A process's own buffer written with copy_to_user needs none of this:
// the page tables record the write.
//
// The first of these operations fetches the struct page's line from wherever it is
// (page-table-locks.ts keeps that): the marking core's own cache when it pinned the page itself,
// as process_vm_writev's writer has just done; the cache of the core that pinned it, as for a KNEM
// region its owner pinned at creation, across the sockets between them; memory (the page's node,
// mm/sparse-vmemmap.c) when no cache holds it. So a KNEM sender writing into a region on another
// socket pays a remote line transfer per page that a receiver reading it does not.
import type { Program } from '../engine/program.ts';
import type { Range } from '../node/buffer.ts';
import type { World } from '../node/world.ts';
import { addressSpace, pagesSpanned } from './address-space.ts';
import { step } from './kernel-steps.ts';
import { structPagesNs } from './page-table-locks.ts';

/**
 * The two further atomic read-modify-writes on the struct page line once it is here (lock_page's
 * test-and-set, unlock_page's clear). Estimate: a lock-prefixed read-modify-write on an owned line
 * takes about 20 cycles on the presets' x86 cores (Agner Fog's instruction tables, LOCK CMPXCHG /
 * XCHG), about 10 ns at 2-3 GHz: 20 ns for the two.
 */
export const PAGE_DIRTY_ATOMICS_NS = 20;

/** Marks dirty every page of `written` (ranges the kernel wrote through kmap), by `rank`'s core. */
export function* dirtyPages(world: World, rank: number, written: readonly Range[]): Program<void> {
  const { pageBytes } = world.node.spec.kernel;
  let ns = 0;
  let pages = 0;
  for (const r of written) {
    if (r.bytes === 0) continue;
    // The struct page line comes from wherever it is: this core's cache when this core has just
    // pinned the page, another core's when that one did, memory when no cache holds it.
    const owner = r.buf.owner >= 0 ? r.buf.owner : rank;
    const address = addressSpace(world, owner).addressOf(r.buf) + r.offset;
    const n = pagesSpanned(address, r.bytes, pageBytes);
    ns += structPagesNs(world, rank, owner, address, r.bytes) + n * PAGE_DIRTY_ATOMICS_NS;
    pages += n;
  }
  if (pages > 0) yield* step(world, rank, 'dirty', `mark ${pages} written pages dirty`, ns);
}
