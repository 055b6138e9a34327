// Calibration table for contended kernel locks (handoff-lock.ts, page-table-locks.ts). The time a
// hand-off takes is not a constant here: it is the machine's cache-line latency between the two
// cores (topology lineLatency: the cache they share, the node's trip between cores sharing none,
// else a memory access across the links between their sockets). What remains are the shapes of
// the kernel's data structures and one
// factor of the ticket lock's queueing, each with its source.
import type { MachineSpec } from '../../hardware/spec.ts';

export interface LockCosts {
  /**
   * Bytes of one page-table entry. A page-table page is one page of entries, so with split PTE
   * locks (USE_SPLIT_PTE_PTLOCKS, include/linux/mm.h: on whenever NR_CPUS >= 4) one spinlock guards
   * pageBytes / pteBytes pages: PTRS_PER_PTE = 512 pages of 4 KiB, 2 MiB of address space, on
   * x86-64 (arch/x86/include/asm/pgtable_64_types.h). Source: 64-bit page-table entries.
   */
  pteBytes: number;
  /**
   * Share of the other spinning waiters whose reads of a ticket lock's line the memory system
   * serves before the next holder's, at each release. Source: Boyd-Wickizer, Kaashoek, Morris and
   * Zeldovich, "Non-scalable locks are dangerous", Linux Symposium 2012, §3: the release
   * invalidates every waiter's copy, their re-reads are served one after another by the line's
   * home, and the next ticket holder is on average half way through them, so a hand-off takes
   * time linear in the number of waiters. 0.5 is that model's average, not a measurement.
   */
  ticketWaiterShare: number;
}

export function lockCosts(spec: MachineSpec): LockCosts {
  void spec;
  return { pteBytes: 8, ticketWaiterShare: 0.5 };
}

/** Pages one page-table page (and so one split PTE lock) covers. */
export function pagesPerTable(spec: MachineSpec): number {
  return Math.max(1, Math.floor(spec.kernel.pageBytes / lockCosts(spec).pteBytes));
}
