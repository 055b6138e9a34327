// The names a machine file may give under `kernel.params`: the mechanism constants the kernel
// models read (their defaults and sources live beside each model in sim/kernel/). Listing them here
// lets the machine-file loader reject a misspelt name instead of silently keeping the default.

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
  smSideNs:
    "Open MPI sm BTL: the library's work on each side of a fragment that starts a message (eager or rendezvous), besides line transfers (ns)",
  smFollowSideNs:
    "Open MPI sm BTL: the library's work on each side of a fragment of a message already matched (ob1's ACK and later fragments), besides line transfers (ns); absent: smSideNs",
};

/** The parameters that are a yes or a no: 0 or 1, checked where the machine file gives them. */
export const KERNEL_FLAGS: ReadonlySet<string> = new Set(['knemMarksDirty']);
