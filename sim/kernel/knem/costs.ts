// Calibration table of the KNEM driver model. Each constant can be overridden per machine through
// `kernel.params[name]` of the MachineSpec; the defaults below carry their source. The generic
// kernel costs (system call, pinning per page, page size) are not here: they come from
// `kernel.syscallNs`, `kernel.pinPerPageNs` and `kernel.pageBytes` of the spec.
//
// Cross-check: beyond the copy's own system call and pinning (which LiMIC pays too), one KNEM
// message declares, looks up and destroys a region: 750 + 100 + 300 ns = 1.15 µs with the defaults
// below and a 100 ns system call, so about 2.3 µs per ping-pong; Goglin &
// Moreaud (JPDC 2013, §6) attribute ~2 µs of LiMIC's 3-6 µs per ping-pong advantage to exactly
// these KNEM security checks, region declaration and lookup.
import type { MachineSpec } from '../../../hardware/spec.ts';
import { checkKernelParam } from '../kernel-costs.ts';

export const knemDefaults = {
  /**
   * Region creation besides the system call and the pinning: allocating the region structure,
   * locking, inserting the cookie in the radix tree (ns).
   * Source: Goglin & Moreaud, JPDC 2013, §5.3 measure a base overhead of 0.5 to 1 µs per region
   * declaration including the ~100 ns system call (§3, footnote 4); midpoint 750 ns minus 100 ns.
   * §4.1 agrees: "several hundred nanoseconds total" for these steps.
   */
  knemCreateNs: 650,
  /**
   * Region destruction besides the system call: radix-tree removal and freeing the structure (ns).
   * Source: the reverse of the creation bookkeeping of §4.1 (several hundred ns, allocation
   * excluded); no separate measurement published, so the lower end of that range.
   */
  knemDestroyNs: 200,
  /**
   * Cookie lookup in the radix tree, read under RCU without a lock (ns).
   * Source: Goglin & Moreaud, JPDC 2013, §4.1: "less than 100 nanoseconds" even with thousands of
   * contexts or regions; the upper bound is taken.
   */
  knemLookupNs: 100,
  /**
   * Kernel mapping (kmap) of one region page during a region copy (ns). Goglin & Moreaud, JPDC
   * 2013, §5.3, call the remapping "not very expensive (only the local processor MMU is updated)";
   * on a 64-bit kernel there is not even that: without CONFIG_HIGHMEM, which x86-64 never has,
   * kmap() is page_address(), a few instructions of arithmetic on the page's descriptor (Linux
   * include/linux/highmem.h, or highmem-internal.h since 5.11). 1 ns for those instructions.
   */
  knemKmapPerPageNs: 1,
  /**
   * Speed of the kernel copy loop relative to the core's memcpy, receiver reading (pulling), for a
   * machine file to calibrate. 1: the model assumes no difference in the loops themselves (both
   * directions run `rep movs` on the presets' processors, through memcpy or copy_user_generic).
   * What differs around the loop is modelled instead: a write marks the pinned pages it wrote dirty
   * (`knemMarksDirty`), a synchronous read writes through the reader's own mapping (index.ts,
   * `throughPinnedPages`).
   */
  knemReadEfficiency: 1,
  /** Same, sender writing (pushing); 1 as above. */
  knemWriteEfficiency: 1,
  /**
   * Whether the driver marks the pinned pages it wrote dirty when it releases them (1) or not (0).
   * Source: KNEM ChangeLog, 0.9.4 (December 2010): "Mark pages as dirty when we wrote to a region";
   * earlier releases marked none. 1 by default; a machine whose measurements ran an earlier KNEM
   * says 0 (the presets of Ma et al. 2010, which used KNEM 0.9.1).
   */
  knemMarksDirty: 1,
  /**
   * Speed of a copy by KNEM's kernel thread relative to a synchronous copy, when the thread shares
   * the core of a busy rank. Source: Goglin & Moreaud, JPDC 2013, §4.3 (thread and task "compete for
   * a single core ... performance decrease"). The seed gives the direction only; the magnitude
   * used, 10-20 % slower than synchronous (midpoint 15 %: 1 / 1.15), is the project's reading of
   * KNEM's kernel-thread measurements and awaits calibration on a host with KNEM.
   */
  knemThreadEfficiency: 1 / 1.15,
  /**
   * Copy bandwidth of one I/OAT DMA channel (bytes/ns).
   * Source: Goglin & Moreaud, JPDC 2013, §5.4: I/OAT was "always useful for large messages" on 2007
   * non-NUMA Xeons, "never useful" on Westmere (Fig. 12) whose cores copy much faster, because "I/O AT
   * DMA performance has not improved significantly since 2007". That brackets it between the
   * off-cache memcpy of those Xeons (~2 GB/s) and Westmere's (~4-5 GB/s); 2.5 GB/s taken. Calibrate.
   */
  ioatBandwidth: 2.5,
  /**
   * Time for the DMA channel to fetch a descriptor chain and start moving data (ns).
   * Source: estimate of one descriptor fetch across the chipset (about one PCIe round trip, ~1 µs);
   * no seed measures it. Calibrate per machine.
   */
  ioatSetupNs: 1000,
} as const;

export type KnemParam = keyof typeof knemDefaults;

/** The constant for this machine: its `kernel.params` entry when given (checked), else the default above. */
export function knemParam(spec: MachineSpec, name: KnemParam): number {
  const given = spec.kernel.params[name];
  if (given === undefined) return knemDefaults[name];
  return checkKernelParam(spec, name, given);
}
