// The page-table locks get_user_pages takes, per page, on the process whose pages it pins.
//
// __get_user_pages walks the target's page tables page by page; for each page follow_page_pte
// takes the lock of the page-table page that maps it (pte_offset_map_lock), takes a reference on
// the page (get_page, try_grab_page from 5.7: an atomic on the page's struct page), and drops the
// lock (mm/gup.c; mm/memory.c before 3.17). With split PTE locks one spinlock covers one
// page-table page, 512 pages of 4 KiB (lock-costs.ts). CMA pins the target's pages this way under
// mmap_read_lock (mm/process_vm_access.c), KNEM and LiMIC their caller's own, XPMEM's fault
// handler the owner's. Readers of distinct processes, or of distant parts of one, take distinct
// locks; N readers of one buffer take the same ones and, because each takes and drops the lock per
// page, they go round in turn, page after page: every turn moves the lock's line and the page's
// struct page line from the previous reader's core (Hashmi et al., seed 001: "takes a page table
// lock on the target process; lock contention increases with number of concurrent readers").
//
// A holder with nobody queued behind it keeps the lock for the rest of the pages it wants in that
// page-table page (the kernel would retake it per page uncontended, at no cost the model sees);
// once someone waits, each hold pins one page, as the kernel's turns are.
import type { Program } from '../engine/program.ts';
import type { World } from '../node/world.ts';
import { lazily, RunState } from '../node/run-state.ts';
import type { AddressSpace } from './address-space.ts';
import { HandoffLock } from './handoff-lock.ts';
import { coldPageNs } from './kernel-costs.ts';
import { lockCosts, pagesPerTable } from './lock-costs.ts';
import { lockKinds } from './lock-kinds.ts';

/** One process's page-table locks and, per page, the core whose reference count bump was last. */
class PageTables {
  private readonly locks = new Map<number, HandoffLock>();
  /** Per page, the core whose cache holds its struct page line; absent: no cache does. */
  private readonly lastPinner = new Map<number, number>();
  /** Per core, the miss to the memory holding this process's struct pages. */
  private readonly missNs = new Map<number, number>();

  constructor(
    private readonly world: World,
    private readonly rank: number,
  ) {
    // Cold iterations (IMB -off_cache) rotate through other buffers, whose struct pages no cache
    // holds: the first pin of each page misses again.
    world.node.onClearCaches(() => this.lastPinner.clear());
  }

  lock(table: number): HandoffLock {
    return lazily(this.locks, table, () => {
      const spec = this.world.node.spec;
      const topo = this.world.node.topo;
      return new HandoffLock(
        `page-table lock ${table} of rank ${this.rank}`,
        lockKinds(spec.kernel.version).spinlock,
        (a, b) => topo.lineLatency(a, b),
        lockCosts(spec).ticketWaiterShare,
      );
    });
  }

  /** ns for `core` to take a reference on pages [first, first + n): each page's line comes from
   *  the core that took the last one, when that is another core, and from memory when no cache
   *  holds it (a page not pinned since the caches were last cleared), which also costs the host's
   *  `coldPageNs` (kernel-costs.ts). */
  referenceNs(core: number, first: number, n: number): number {
    const topo = this.world.node.topo;
    const cold = coldPageNs(this.world.node.spec);
    let ns = 0;
    for (let p = first; p < first + n; p++) {
      const last = this.lastPinner.get(p);
      if (last === undefined) ns += this.structPageMissNs(core) + cold;
      else if (last !== core) ns += topo.lineLatency(last, core);
      this.lastPinner.set(p, core);
    }
    return ns;
  }

  /**
   * A struct page sits in the memory map of its page's NUMA node (mm/sparse-vmemmap.c), and a
   * process's pages are on its own core's node (first touch): a miss there, across the links
   * between. The reference is an atomic increment, so the line is needed before the next page's
   * (one dependent miss per page, as page-dirty.ts charges for marking pages dirty).
   */
  private structPageMissNs(core: number): number {
    return lazily(this.missNs, core, () => {
      const topo = this.world.node.topo;
      const home = topo.numa(topo.core(this.world.cores[this.rank]).numa);
      return home.latencyNs + topo.routeLatency(topo.coreVertex(core), home.attach);
    });
  }
}

const TABLES = new RunState('page tables', () => new Map<number, PageTables>());

function pageTables(world: World, rank: number): PageTables {
  return lazily(world.stateOf(TABLES), rank, () => new PageTables(world, rank));
}

/**
 * ns for `rank`'s core to bring the struct page lines of pages [first, first + n) of `owner`'s
 * address space to itself, as a pin does (PageTables.referenceNs): nothing for the lines it holds
 * already, having pinned those pages itself.
 */
export function structPageLinesNs(world: World, owner: number, rank: number, first: number, n: number): number {
  return pageTables(world, owner).referenceNs(world.cores[rank], first, n);
}

/**
 * Pins `pages` pages of `space` from the page holding `address`, by `rank`'s core, `perPageNs` of
 * work each, under the page-table locks; the caller holds the address-space lock. Queueing and
 * hand-offs are recorded as 'lock-wait', the pinning (with the struct page line transfers) as `kind`.
 */
export function* pinPages(
  world: World,
  rank: number,
  space: AddressSpace,
  address: number,
  pages: number,
  perPageNs: number,
  kind = 'pin',
): Program<void> {
  const spec = world.node.spec;
  const tables = pageTables(world, space.rank);
  const perTable = pagesPerTable(spec);
  const core = world.cores[rank];
  const trace = world.node.trace;
  // Pinning that follows pinning with no wait between is one 'pin' step, as one batch reads in a
  // trace; a wait or a hand-off ends it.
  let pin: { start: number; end: number; pages: number } | undefined;
  const flush = (): void => {
    if (!pin) return;
    const label = `pin ${pin.pages} pages of rank ${space.rank}`;
    trace.record({ rank, kind, label, start: pin.start, end: pin.end, bytes: 0, resource: space.lockName });
    pin = undefined;
  };
  let page = Math.floor(address / spec.kernel.pageBytes);
  const end = page + pages;
  while (page < end) {
    const table = Math.floor(page / perTable);
    const lock = tables.lock(table);
    const asked = world.sim.now;
    const handoff = yield* lock.acquire(core);
    const granted = world.sim.now;
    const n = lock.contended ? 1 : Math.min(end, (table + 1) * perTable) - page;
    const pinNs = n * perPageNs + tables.referenceNs(core, page, n);
    yield* world.sim.sleep(handoff + pinNs);
    if (granted > asked || handoff > 0) flush();
    if (granted > asked)
      trace.record({
        rank,
        kind: 'lock-wait',
        label: `wait ${lock.name}`,
        start: asked,
        end: granted,
        bytes: 0,
        resource: lock.name,
      });
    if (handoff > 0)
      trace.record({
        rank,
        kind: 'lock-wait',
        label: `hand-off ${lock.name}`,
        start: granted,
        end: granted + handoff,
        bytes: 0,
        resource: lock.name,
      });
    if (pin) {
      pin.end = world.sim.now;
      pin.pages += n;
    } else pin = { start: granted + handoff, end: world.sim.now, pages: n };
    lock.release();
    page += n;
  }
  flush();
}
