// Calibration table for the kernel-assisted single-copy mechanisms modelled in this folder (CMA,
// XPMEM and its registration cache, LiMIC). The machine spec carries the costs every mechanism
// shares (syscall entry, page size, get_user_pages per page); these are the mechanism-specific
// ones. Each default names its source; a machine file overrides any of them under
// `kernel.params` with the same name.
import type { MachineSpec } from '../../hardware/spec.ts';
import { InputError } from '../../common/input-error.ts';
import { kernelParamProblem } from '../../hardware/kernel-params.ts';

export interface KernelCosts {
  /**
   * Pages process_vm_readv/writev pins per iteration, under one hold of the target's mm lock.
   * Source: Linux mm/process_vm_access.c. The batch is the page-pointer array the call kmallocs:
   * 2 pages of `struct page *`, i.e. PVM_MAX_KMALLOC_PAGES = PAGE_SIZE * 2 bytes / sizeof(pointer)
   * in 3.2 (max_pages_per_loop) and PVM_MAX_USER_PAGES = 2 * PAGE_SIZE / sizeof(struct page *) from
   * 3.19 on: 1024 pages with 4 KiB pages on a 64-bit kernel. (PVM_MAX_PP_ARRAY_COUNT = 16 is only
   * the on-stack array used when a call spans at most 16 pages; it does not bound the batch.)
   * Derived from the spec's page size unless `kernel.params.cmaPagesPerBatch` is set.
   */
  cmaPagesPerBatch: number;
  /**
   * Speed of the kernel's copy loop (copy_to_user / copy_page_to_iter) relative to the core's
   * user-space memcpy. Source: on x86-64 both end in `rep movsb` on ERMS CPUs
   * (copy_user_enhanced_fast_string, glibc's memmove-vec-unaligned-erms for large sizes), so the
   * default is parity; set `kernel.params.kernelCopyEfficiency` from a measurement on the host.
   */
  kernelCopyEfficiency: number;
  /**
   * xpmem_make: allocate the segment structure, take the thread group's lock, insert in its
   * segment list (the ioctl entry is charged separately as a syscall).
   * Source: Goglin & Moreaud, JPDC 2013 §4.1 (seed 004) put the same kind of kernel bookkeeping for
   * a KNEM region ("a system call, allocating a data structure, locking, and inserting in a
   * radix-tree") at "several hundred nanoseconds total"; 300 ns is the low end of that range.
   */
  xpmemMakeNs: number;
  /**
   * xpmem_get work while holding the owner's segment lock (permission check, access-permit
   * allocation, hash insertion). Concurrent getters of one owner queue on that lock, which is what
   * makes its cost grow with processes per node (Hashmi et al., seed 001, "Increasing PPN
   * increases the cost of xpmem_get(): lock contention"). Default: the same several-hundred-ns
   * kernel bookkeeping estimate as xpmemMakeNs (seed 004 §4.1).
   */
  xpmemGetNs: number;
  /**
   * xpmem_attach fixed part: creating the VMA in the attaching process (vm_mmap) and its
   * bookkeeping. Default: the same several-hundred-ns estimate (seed 004 §4.1).
   */
  xpmemAttachNs: number;
  /**
   * Per page of the attached range: XPMEM's fault handler resolves each page of the source by
   * get_user_pages on the owner's mm (xpmem_fault.c), so by default it costs what pinning does:
   * the spec's `kernel.pinPerPageNs`. Charged at attach time (the real faults happen on first
   * touch, inside the first copy).
   */
  xpmemFaultPerPageNs: number;
  /** xpmem_detach + xpmem_release: munmap of the attachment and freeing the access permit.
   *  Default: the same several-hundred-ns estimate (seed 004 §4.1). */
  xpmemDetachNs: number;
  /**
   * Registration-cache lookup, per level of the AVL tree walked (cost = this × ceil(log2(n+1))).
   * Estimate: one dependent load and a compare per level; a tree of a few thousand entries stays
   * in L2, whose load-to-use latency on the seeds' Broadwell machines is about 12 cycles (Intel 64
   * and IA-32 Optimization Reference Manual, Haswell/Broadwell cache latencies): 5 ns at 2.4 GHz.
   */
  regcacheLookupNs: number;
  /**
   * Entries the registration cache holds before FIFO eviction.
   * Source: Hashmi et al., seed 001: "FIFO performed better than LRU for a fixed sized cache;
   * 4K as optimal cache size".
   */
  regcacheCapacity: number;
}

/** Default of `regcacheCapacity` (source: see KernelCosts); scenarios show it as the parameter's default. */
export const DEFAULT_REGCACHE_CAPACITY = 4096;

type Param = keyof KernelCosts;

/** Size of a page pointer on the 64-bit kernels every preset assumes. */
const POINTER_BYTES = 8;

function defaults(spec: MachineSpec): KernelCosts {
  return {
    cmaPagesPerBatch: Math.max(1, Math.floor((2 * spec.kernel.pageBytes) / POINTER_BYTES)),
    kernelCopyEfficiency: 1,
    xpmemMakeNs: 300,
    xpmemGetNs: 300,
    xpmemAttachNs: 300,
    xpmemFaultPerPageNs: spec.kernel.pinPerPageNs,
    xpmemDetachNs: 300,
    regcacheLookupNs: 5,
    regcacheCapacity: DEFAULT_REGCACHE_CAPACITY,
  };
}

const memo = new WeakMap<MachineSpec, KernelCosts>();

/** The mechanism constants for this machine: defaults, overridden by `kernel.params`. */
export function kernelCosts(spec: MachineSpec): KernelCosts {
  let costs = memo.get(spec);
  if (costs) return costs;
  costs = defaults(spec);
  for (const name of Object.keys(costs) as Param[]) {
    const value = spec.kernel.params[name];
    if (value === undefined) continue;
    costs[name] = checkKernelParam(spec, name, value);
  }
  memo.set(spec, costs);
  return costs;
}

/**
 * `kernel.params.coldPageNs`: what a page the kernel references cold (pins, or marks dirty, for
 * the first time since the caches were last cleared) costs beyond the miss to its struct page,
 * which the model charges itself (page-table-locks.ts). Default 0: on bare metal that miss is the
 * cold page's cost (seed 004 measured 30-180 ns per pinned page). A machine file may set more; no
 * calibration fits it (what the development host pays for cold CMA transfers is the kernel's first
 * access to the reader's own pages: firstUserAccessNs). Read from the spec at each use.
 */
export function coldPageNs(spec: MachineSpec): number {
  const value = spec.kernel.params.coldPageNs;
  return value === undefined ? coldPageDefaults.coldPageNs : checkKernelParam(spec, 'coldPageNs', value);
}

/** The default of `coldPageNs` (source: see coldPageNs). */
export const coldPageDefaults = { coldPageNs: 0 } as const;

/**
 * `kernel.params.firstUserAccessNs`: what the kernel's first access to a page through the calling
 * process's own mapping costs beyond the copy, once per page (user-access.ts). Default 0: nothing on
 * bare metal. On a guest whose hypervisor shadows its page tables, with page-table isolation, each
 * such first access exits to the hypervisor (several microseconds a page on the development host:
 * docs/validation.md, the first-access probe). `intranode calibrate` fits it from a cold CMA sweep
 * (native-validate/fit/constants.ts).
 * Read from the spec at each use, not memoised with kernelCosts, because the calibration's fit
 * changes it between predictions.
 */
export function firstUserAccessNs(spec: MachineSpec): number {
  const value = spec.kernel.params.firstUserAccessNs;
  return value === undefined
    ? firstUserAccessDefaults.firstUserAccessNs
    : checkKernelParam(spec, 'firstUserAccessNs', value);
}

/** The default of `firstUserAccessNs` (source: see firstUserAccessNs). */
export const firstUserAccessDefaults = { firstUserAccessNs: 0 } as const;

/**
 * A machine's `kernel.params.<name>`, checked by the rule the machine-file loader applies
 * (hardware/kernel-params.ts): a machine built in code, not loaded, is checked here first.
 */
export function checkKernelParam(spec: MachineSpec, name: string, value: number): number {
  const problem = kernelParamProblem(name, value);
  if (problem !== undefined)
    throw new InputError(problem, { file: spec.origin || undefined, field: `kernel.params.${name}` });
  return value;
}
