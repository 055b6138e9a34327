// The names a machine file may give under `kernel.params`: the mechanism constants the kernel
// models read (their defaults and sources live beside each model in sim/kernel/). Listing them here
// lets the machine-file loader reject a misspelt name instead of silently keeping the default.
import { describeNumber } from '../common/yaml/value.ts';

export const KERNEL_PARAMS: Readonly<Record<string, string>> = {
  knemCreateNs: 'KNEM region creation, base cost besides pinning (ns)',
  knemDestroyNs: 'KNEM region destruction (ns)',
  knemLookupNs: 'KNEM cookie lookup in the radix tree (ns)',
  knemKmapPerPageNs: 'KNEM region copy: kernel remapping per page (ns)',
  knemReadEfficiency: 'KNEM receiver-reading copy speed relative to memcpy',
  knemWriteEfficiency: 'KNEM sender-writing copy speed relative to memcpy',
  knemMarksDirty: 'KNEM marks the pinned pages it wrote dirty on release: 1 (from KNEM 0.9.4) or 0',
  knemThreadEfficiency: 'KNEM kernel-thread offload copy speed relative to a synchronous copy',
  ioatBandwidth: 'I/OAT DMA channel bandwidth (bytes/ns)',
  ioatSetupNs: 'I/OAT descriptor setup per chain (ns)',
  cmaPagesPerBatch: 'pages CMA pins per batch under the target lock',
  kernelCopyEfficiency: 'kernel copy loop speed relative to user-space memcpy',
  xpmemMakeNs: 'xpmem_make (ns)',
  xpmemGetNs: 'xpmem_get, held under the owner lock (ns)',
  xpmemAttachNs: 'xpmem_attach, base cost (ns)',
  xpmemFaultPerPageNs: 'XPMEM page fault per attached page (ns)',
  xpmemDetachNs: 'xpmem_detach (ns)',
  regcacheLookupNs: 'XPMEM registration cache, cost per tree level of a lookup (ns)',
  regcacheCapacity: 'XPMEM registration cache entries before FIFO eviction',
  pageFaultNs: 'first-touch page fault of a fresh buffer, besides zeroing the page (ns)',
  coldPageNs:
    'a page the kernel references cold (not since the caches were last cleared), besides the miss to its struct page (ns); 0 by default',
  firstUserAccessNs:
    "the kernel's first access to a page through the calling process's own mapping (the local side of CMA, a synchronous KNEM read), once per page (ns); 0 by default",
  smSideNs:
    "Open MPI sm BTL: the library's work on each side of a fragment that starts a message (eager or rendezvous), besides line transfers (ns)",
  smFollowSideNs:
    "Open MPI sm BTL: the library's work on each side of a fragment of a message already matched (ob1's ACK and later fragments), besides line transfers (ns); absent: smSideNs",
};

/**
 * What a parameter must be beyond a finite number of at least 0 (every one is a time, a size, a
 * count, a bandwidth or a relative speed): `positive`, a divisor (a relative speed, a bandwidth);
 * `count`, a whole number of at least 1; `flag`, 0 or 1. Checked where a machine file or a sweep
 * gives the value (hardware/validate.ts), and again where a model reads it.
 */
const RULES: Readonly<Record<string, 'positive' | 'count' | 'flag'>> = {
  knemReadEfficiency: 'positive',
  knemWriteEfficiency: 'positive',
  knemThreadEfficiency: 'positive',
  ioatBandwidth: 'positive',
  kernelCopyEfficiency: 'positive',
  cmaPagesPerBatch: 'count',
  regcacheCapacity: 'count',
  knemMarksDirty: 'flag',
};

/** What is wrong with `value` for parameter `name`, or undefined when it is a value it may take. */
export function kernelParamProblem(name: string, value: number): string | undefined {
  if (!Number.isFinite(value) || value < 0)
    return `${name} must be a non-negative number, got ${describeNumber(value)}`;
  const rule = Object.hasOwn(RULES, name) ? RULES[name] : undefined;
  if (rule === undefined) return undefined;
  if (rule !== 'flag' && value === 0) return `${name} must be greater than zero`;
  if (rule !== 'positive' && !Number.isInteger(value)) return `${name} must be a whole number, got ${value}`;
  if (rule === 'flag' && value > 1) return `${name} must be 0 or 1, got ${value}`;
  return undefined;
}
