// Calibration of a first-touch page fault on anonymous memory, the cost a freshly allocated buffer
// pays on its first access (scenario `buffers: fresh`). The handler's fixed work is a constant
// here; zeroing the new page is not: it is a store stream the node model runs as a flow (the core
// and the page's memory, contended like any other write), so it grows with memory pressure.
import { InputError } from '../../common/input-error.ts';
import type { MachineSpec } from '../../hardware/spec.ts';

export const pageFaultDefaults = {
  /**
   * Kernel work of one anonymous first-touch fault besides zeroing the page: the exception entry
   * and return, the VMA lookup, allocating the page and setting the page-table entry (ns).
   * Estimate: a minimal first-access fault of a 4 KiB anonymous page, zeroing included, measured
   * at about 575 ns (1,842 cycles at 3.2 GHz; median about 1 µs) on Linux 6.6 and an 11th-generation
   * Core i7 (rdtsc around the first load of a fresh mmap, https://ddumbying.vercel.app/experiments/
   * pagefault-latency); zeroing is the largest part of the handler (C. Lameter's pre-zeroing patch
   * measurements, kernel.org/pub/linux/kernel/people/christoph/prezero), and 4 KiB at one core's
   * store bandwidth (~10-15 GB/s) is about 300 ns of it, leaving 250-300 ns; 250 ns taken.
   * Override per machine as `kernel.params.pageFaultNs`.
   */
  pageFaultNs: 250,
} as const;

const memo = new WeakMap<MachineSpec, number>();

/** The fixed cost of one page fault on this machine: `kernel.params.pageFaultNs`, else the default. */
export function pageFaultNs(spec: MachineSpec): number {
  const known = memo.get(spec);
  if (known !== undefined) return known;
  const given = spec.kernel.params.pageFaultNs;
  if (given !== undefined && !(Number.isFinite(given) && given >= 0))
    throw new InputError(`pageFaultNs must be a non-negative number, got ${given}`, {
      file: spec.origin || undefined,
      field: 'kernel.params.pageFaultNs',
    });
  const ns = given ?? pageFaultDefaults.pageFaultNs;
  memo.set(spec, ns);
  return ns;
}
