// This host as a MachineSpec: hwloc's lstopo when installed (it sees NICs and I/O too), else Linux
// sysfs; the kernel's mechanisms always from sysfs (/sys/class/misc/knem, xpmem), and CMA from what
// the native probe finds (the kernel may refuse it).
import { spawnSync } from 'node:child_process';
import { detectHost } from '../hardware/sysfs.ts';
import { importHwlocXml } from '../hardware/hwloc/import.ts';
import type { MachineSpec } from '../hardware/spec.ts';

export interface DetectedHost {
  spec: MachineSpec;
  /** How it was detected, for the report. */
  via: string;
}

export function detectThisHost(): DetectedHost {
  const sysfs = detectHost();
  const lstopo = spawnSync('lstopo', ['--of', 'xml', '-'], { encoding: 'utf8', maxBuffer: 64 << 20 });
  if (lstopo.error || lstopo.status !== 0 || !lstopo.stdout.includes('<topology')) {
    return { spec: sysfs, via: 'sysfs (lstopo not available)' };
  }
  const spec = importHwlocXml(lstopo.stdout, 'lstopo');
  spec.name = 'host';
  spec.kernel = { ...spec.kernel, version: sysfs.kernel.version, mechanisms: { ...sysfs.kernel.mechanisms } };
  spec.guessed = spec.guessed.filter((g) => !g.startsWith('kernel.mechanisms.') && g !== 'kernel.version');
  for (const g of sysfs.guessed) if (g.startsWith('kernel.mechanisms.')) spec.guessed.push(g);
  return { spec, via: 'hwloc (lstopo --of xml) and sysfs' };
}
