// Pages the kernel writes through its own mapping of them (pinned with get_user_pages, copied into
// with kmap) must be marked dirty before they are released, or the write could be lost when the
// page is reclaimed: set_page_dirty_lock() takes the page lock, sets PG_dirty and unlocks, three
// atomic operations on the page's struct page (mm/page-writeback.c; process_vm_rw_pages() calls it
// for every page a process_vm_writev wrote, mm/process_vm_access.c; KNEM, from release 0.9.4,
// releases the pinned pages it copied into the same way). A process's own buffer written with
// copy_to_user (a synchronous KNEM read, process_vm_readv) needs none of this: the page tables
// record the write.
//
// The struct page sits in the memory map of the page's own NUMA node (mm/sparse-vmemmap.c
// populates each section's memmap on its node). The pages marked are the ones the same call pinned
// just before (process_vm_rw_core pins a batch with get_user_pages, copies it, then marks and
// releases each page of that batch; KNEM releases the pages it pinned), and pinning took a
// reference on every one of those struct pages: their lines come from wherever the pin left them
// (page-table-locks.ts, `referenceNs`), in this core's cache when it pinned them itself. Only a page
// pinned by another core, or not since the caches were cleared, costs a line transfer or a miss to
// its node here. Shared segments (no owning rank) are taken to miss every time.
import type { Program } from '../engine/program.ts';
import type { Range } from '../node/buffer.ts';
import type { World } from '../node/world.ts';
import { addressSpace, pagesSpanned } from './address-space.ts';
import { step } from './kernel-steps.ts';
import { structPageLinesNs } from './page-table-locks.ts';

/**
 * The two further atomic read-modify-writes on the struct page line once it is here (lock_page's
 * test-and-set, unlock_page's clear). Estimate: a lock-prefixed read-modify-write on an owned line
 * takes about 20 cycles on the presets' x86 cores (Agner Fog's instruction tables, LOCK CMPXCHG /
 * XCHG), about 10 ns at 2-3 GHz: 20 ns for the two.
 */
export const PAGE_DIRTY_ATOMICS_NS = 20;

/** Marks dirty every page of `written` (ranges the kernel wrote through kmap), by `rank`'s core. */
export function* dirtyPages(world: World, rank: number, written: readonly Range[]): Program<void> {
  const { node, cores } = world;
  const { pageBytes } = node.spec.kernel;
  const core = node.topo.coreVertex(cores[rank]);
  let ns = 0;
  let pages = 0;
  for (const r of written) {
    if (r.bytes === 0) continue;
    const owner = r.buf.owner;
    if (owner >= 0) {
      const address = addressSpace(world, owner).addressOf(r.buf) + r.offset;
      const n = pagesSpanned(address, r.bytes, pageBytes);
      ns += n * PAGE_DIRTY_ATOMICS_NS + structPageLinesNs(world, owner, rank, Math.floor(address / pageBytes), n);
      pages += n;
      continue;
    }
    const n = Math.floor((r.offset + r.bytes - 1) / pageBytes) - Math.floor(r.offset / pageBytes) + 1;
    const home = node.topo.numa(r.buf.home ?? node.topo.core(cores[rank]).numa);
    const miss = home.latencyNs + node.topo.routeLatency(core, home.attach);
    ns += n * (miss + PAGE_DIRTY_ATOMICS_NS);
    pages += n;
  }
  if (pages > 0) yield* step(world, rank, 'dirty', `mark ${pages} written pages dirty`, ns);
}
