// Which locks a kernel version takes where the kernel-assisted mechanisms pin or fault pages, read
// from the machine file's `kernel.version`. Sources, each a change in mainline Linux:
// - The address-space lock has been a rw_semaphore taken for read by get_user_pages callers since
//   2.4 (`down_read(&mm->mmap_sem)` in mm/process_vm_access.c from 3.2). Linux 5.8 renamed it
//   `mmap_lock` behind the mmap_read_lock() API (include/linux/mmap_lock.h); the semantics did not
//   change, so readers of one process share it in every version: only its name follows the kernel.
// - Spinlocks on x86: ticket spinlocks from 2.6.25 (arch/x86/include/asm/spinlock.h), queued
//   (MCS-style) spinlocks from 4.2 (ARCH_USE_QUEUED_SPINLOCKS, kernel/locking/qspinlock.c). A ticket
//   lock's waiters all spin on the lock's own cache line; a queued lock's waiters each spin on their
//   own node and only the next one is written at release. The split page-table locks get_user_pages
//   takes per page are such spinlocks. (POWER's pre-5.9 lock is a test-and-set lock whose waiters
//   also spin on the lock's line, so it is treated as a ticket lock.)
// - Per-VMA locks from 6.4 (CONFIG_PER_VMA_LOCK, lock_vma_under_rcu in the x86 fault handler): a
//   page fault in an attaching process no longer takes its own mmap_lock. CMA and KNEM still pin
//   under mmap_read_lock on 6.x (pin_user_pages_remote in mm/process_vm_access.c), and XPMEM's
//   fault handler still resolves each page with get_user_pages on the owner's mm under the owner's
//   lock (xpmem_fault.c), which is where the model charges it; the attaching process's own lock,
//   which per-VMA locks spare, is taken by nobody else in the model, so no kind is kept for it.

export interface LockKinds {
  /** Name of the address-space rw_semaphore in this kernel. */
  mmLock: 'mmap_sem' | 'mmap_lock';
  /** How waiters of a kernel spinlock wait: on the lock's line (ticket) or on their own (queued). */
  spinlock: 'ticket' | 'queued';
}

/** Major and minor of a version string such as "3.10.0" or "5.14.0-284.el9"; undefined if unreadable. */
export function majorMinor(version: string): [number, number] | undefined {
  const m = /^(\d+)\.(\d+)/.exec(version.trim());
  return m ? [Number(m[1]), Number(m[2])] : undefined;
}

function atLeast(v: [number, number], major: number, minor: number): boolean {
  return v[0] > major || (v[0] === major && v[1] >= minor);
}

/**
 * The lock kinds of `version`. A version without a leading major.minor (a distribution's own
 * naming) is taken as 2.6, the oldest kernel the presets use.
 */
export function lockKinds(version: string): LockKinds {
  const v = majorMinor(version) ?? [2, 6];
  return {
    mmLock: atLeast(v, 5, 8) ? 'mmap_lock' : 'mmap_sem',
    spinlock: atLeast(v, 4, 2) ? 'queued' : 'ticket',
  };
}
