// One address space per rank (each MPI rank is a process): the lock that guards its page tables
// and mappings, and the virtual addresses of its buffers.
//
// Which lock, and how readers of one process behave, depends on the kernel:
// - Linux 3.2 to 5.7: process_vm_readv/writev take the target's `mm->mmap_sem` for read
//   (down_read) around get_user_pages, batch by batch (mm/process_vm_access.c). From 5.8 the same
//   rw_semaphore is called `mmap_lock` (mmap_read_lock); 6.x pins with pin_user_pages_remote under
//   it. Several readers may hold it at once.
// - Inside get_user_pages every page-table walk takes the target's page-table spinlock
//   (`mm->page_table_lock`, or with split PTE locks the lock of the page-table page, one per 2 MiB
//   of address space), and every pin bumps the refcount of the very pages the other readers pin.
//   When N processes read the same buffer of one process they walk the same page-table pages, so
//   they serialise there and bounce the rw_semaphore's and the pages' cache lines. Hashmi et al.
//   (seed 001, Broadwell, ftrace) blame "a page table lock on the target process" and measure over
//   90% of a one-to-all CMA read spent in lock contention.
// `kernel.cmaLockMode` chooses how pinners hold this lock: 'shared' is the rw_semaphore's read side
// that every kernel takes (readers pin together; only a writer such as mmap or munmap excludes
// them), and their contention is then the page-table locks' (page-table-locks.ts); 'exclusive'
// serialises whole batches of pinning on a FIFO mutex, the coarser stand-in for that contention.
// Either way every taker writes the lock's count, so its cache line moves to the taker's core.
import { Mutex } from '../engine/mutex.ts';
import type { Program } from '../engine/program.ts';
import type { Buffer } from '../node/buffer.ts';
import type { World } from '../node/world.ts';
import { lazily, RunState } from '../node/run-state.ts';
import { RwLock } from '../engine/rw-lock.ts';
import { lockKinds } from './lock-kinds.ts';

/** Where the first buffer of every process is placed; any page-aligned value would do. */
const FIRST_ADDRESS = 0x10000000;

export class AddressSpace {
  readonly rank: number;
  readonly lockMode: 'exclusive' | 'shared';
  readonly lockName: string;
  private readonly mutex: Mutex | undefined;
  private readonly rw: RwLock | undefined;
  private readonly pageBytes: number;
  private readonly bases = new Map<number, number>();
  private nextAddress = FIRST_ADDRESS;
  private lineCore: number | undefined;
  private readonly lineNs: (from: number, to: number) => number;

  constructor(world: World, rank: number) {
    const kernel = world.node.spec.kernel;
    this.rank = rank;
    this.lockMode = kernel.cmaLockMode;
    this.pageBytes = kernel.pageBytes;
    this.lockName = `${lockKinds(kernel.version).mmLock} of rank ${rank}`;
    this.lineNs = (a, b) => world.node.topo.lineLatency(a, b);
    if (this.lockMode === 'exclusive') this.mutex = new Mutex(world.sim, this.lockName);
    else this.rw = new RwLock(world.sim, this.lockName);
  }

  /** Taken around get_user_pages on this address space (CMA, LiMIC). */
  *lockForPinning(): Program<void> {
    if (this.mutex) yield* this.mutex.lock();
    else yield* this.rw!.lockShared();
  }

  unlockForPinning(): void {
    if (this.mutex) this.mutex.unlock();
    else this.rw!.unlockShared();
  }

  /** Taken by changes to the mappings (mmap, munmap): excludes pinners in both modes. */
  *lockForMapping(): Program<void> {
    if (this.mutex) yield* this.mutex.lock();
    else yield* this.rw!.lockExclusive();
  }

  unlockForMapping(): void {
    if (this.mutex) this.mutex.unlock();
    else this.rw!.unlockExclusive();
  }

  /** ns for the lock's cache line to reach `core` from the core that took the lock last. */
  lineHandoffNs(core: number): number {
    const from = this.lineCore;
    this.lineCore = core;
    return from === undefined || from === core ? 0 : this.lineNs(from, core);
  }

  /** Time every process has spent queued on this lock. */
  get lockWaitNs(): number {
    return this.mutex ? this.mutex.totalWaitNs : this.rw!.totalWaitNs;
  }

  /**
   * Virtual address of a buffer in this process. Large buffers come from mmap, so each starts on a
   * page boundary; a guard page between them keeps two buffers from sharing a page.
   */
  addressOf(buf: Buffer): number {
    let base = this.bases.get(buf.id);
    if (base === undefined) {
      base = this.nextAddress;
      this.bases.set(buf.id, base);
      const pages = Math.ceil(buf.size / this.pageBytes) + 1;
      this.nextAddress += pages * this.pageBytes;
    }
    return base;
  }
}

const SPACES = new RunState('address spaces', () => new Map<number, AddressSpace>());

/** The address space of `rank`, created on first use for this run. */
export function addressSpace(world: World, rank: number): AddressSpace {
  return lazily(world.stateOf(SPACES), rank, () => new AddressSpace(world, rank));
}

/** Pages touched by [address, address + bytes); 0 for an empty range. */
export function pagesSpanned(address: number, bytes: number, pageBytes: number): number {
  if (bytes <= 0) return 0;
  return Math.floor((address + bytes - 1) / pageBytes) - Math.floor(address / pageBytes) + 1;
}
