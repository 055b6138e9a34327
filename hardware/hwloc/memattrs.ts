// hwloc 2.3+ memory attributes: <memattr name="Bandwidth"|"Latency"> with one <memattr_value> per
// (target NUMA node, initiator cpuset). hwloc reports bandwidth in MiB/s and latency in ns
// (hwloc documentation, HWLOC_MEMATTR_ID_BANDWIDTH / HWLOC_MEMATTR_ID_LATENCY).
import type { Attrs } from './objects.ts';
import type { XmlElement } from './xml.ts';

const MIB_PER_S_TO_BYTES_PER_NS = 2 ** 20 / 1e9;

export interface MemoryPerformance {
  /** CPUs the figure holds for; undefined when the file gives none (valid from everywhere). */
  initiators?: number[];
  bandwidth?: number;
  latencyNs?: number;
}

/** Performance figures per target NUMA node gp_index. */
export function readMemoryAttributes(topology: XmlElement, attrs: Attrs): Map<number, MemoryPerformance[]> {
  const byTarget = new Map<number, Map<string, MemoryPerformance>>();
  for (const memattr of topology.children.filter((c) => c.name === 'memattr')) {
    const name = memattr.attrs.get('name');
    if (name !== 'Bandwidth' && name !== 'Latency') continue;
    for (const v of memattr.children.filter((c) => c.name === 'memattr_value')) {
      if (v.attrs.get('target_obj_type') !== 'NUMANode') continue;
      const gp = attrs.int(v, 'target_obj_gp_index');
      const value = attrs.num(v, 'value');
      if (gp === undefined || value === undefined || value <= 0) continue;
      const initiatorText = v.attrs.get('initiator_cpuset');
      const initiators = attrs.bitmap(v, 'initiator_cpuset');
      const perTarget = byTarget.get(gp) ?? new Map<string, MemoryPerformance>();
      byTarget.set(gp, perTarget);
      const key = initiatorText ?? '';
      const entry = perTarget.get(key) ?? (initiators ? { initiators } : {});
      perTarget.set(key, entry);
      if (name === 'Bandwidth') entry.bandwidth = value * MIB_PER_S_TO_BYTES_PER_NS;
      else entry.latencyNs = value;
    }
  }
  return new Map([...byTarget].map(([gp, m]) => [gp, [...m.values()]]));
}
