// Text drawing of a MachineSpec for `intranode machine show`: an lstopo-like tree of packages,
// shared caches and cores, then memory, hubs, links, routing, I/O, costs and kernel. Pure and
// deterministic: the same spec always gives the same text.

import { formatBytes } from '../common/bytes.ts';
import { lineBytesOf, packageVertex, type CacheSpec, type CoreSpec, type MachineSpec } from './spec.ts';

export function renderMachine(spec: MachineSpec): string {
  const out: string[] = [];
  const w = (line = '') => out.push(line);

  w(`Machine ${spec.name}${spec.description ? `: ${spec.description}` : ''}`);
  w(`  origin: ${spec.origin}`);
  if (spec.processor) w(`  speeds from the processor table: ${spec.processor}`);
  const threads = spec.cores.reduce((n, c) => n + c.threads, 0);
  w(
    `  ${plural(spec.packages.length, 'package')}, ${plural(spec.cores.length, 'core')} (${plural(threads, 'hardware thread')}), ${plural(spec.numaNodes.length, 'NUMA node')}`,
  );

  w();
  w('Topology');
  const shared = spec.caches.filter((c) => c.cores.length > 1 && !c.memorySide);
  const privateOf = new Map<number, CacheSpec[]>();
  for (const c of spec.caches) {
    if (c.cores.length === 1 && !c.memorySide) privateOf.set(c.cores[0], [...(privateOf.get(c.cores[0]) ?? []), c]);
  }
  for (const pkg of spec.packages) {
    w(`  Package ${pkg.id} (${packageVertex(pkg.id)}): ${pkg.model}`);
    const cores = spec.cores.filter((c) => c.package === pkg.id).sort((a, b) => a.id - b.id);
    const ids = new Set(cores.map((c) => c.id));
    const caches = shared.filter((c) => c.cores.every((id) => ids.has(id)));
    renderLevel(w, caches, cores, privateOf, '    ');
  }
  const crossPackage = shared.filter(
    (c) => !spec.packages.some((p) => c.cores.every((id) => spec.cores.find((k) => k.id === id)?.package === p.id)),
  );
  for (const c of crossPackage) w(`  ${cacheLabel(c)} spanning cores ${ranges(c.cores)}`);

  w();
  w('Caches (bandwidth shared by the listed cores)');
  if (spec.caches.length === 0) w('  none');
  for (const row of cacheSummary(spec.caches)) w(`  ${row}`);

  w();
  w('NUMA nodes');
  for (const n of spec.numaNodes) {
    const local = spec.cores.filter((c) => c.numa === n.id).map((c) => c.id);
    w(
      `  NUMA ${n.id}: ${size(n.memoryBytes)} ${n.kind}, ${num(n.bandwidth)} GB/s${n.writeBandwidth !== undefined ? ` read, ${num(n.writeBandwidth)} GB/s write on lanes of its own` : ''}${n.writeCost !== undefined ? ` (a written byte costs ${num(n.writeCost)})` : ''}, ${num(n.latencyNs)} ns${n.peerLatencyNs !== undefined ? ` (a line between cores sharing no cache ${num(n.peerLatencyNs)} ns)` : ''}, attached to ${n.attach}, local cores ${local.length ? ranges(local) : 'none'}`,
    );
  }

  if (spec.hubs.length) {
    w();
    w('Hubs');
    for (const h of spec.hubs) w(`  ${h.id}${h.description ? `: ${h.description}` : ''}`);
  }

  w();
  w('Links (bandwidth per direction)');
  if (spec.links.length === 0) w('  none');
  for (const l of spec.links) w(`  ${l.name}: ${l.a} <-> ${l.b}, ${num(l.bandwidth)} GB/s, ${num(l.latencyNs)} ns`);
  if (spec.routing.kind === 'shortest') {
    w('  routing: shortest path');
  } else {
    w('  routing: table (pairs not listed take the shortest path)');
    for (const key of Object.keys(spec.routing.routes).sort()) w(`    ${key}: ${spec.routing.routes[key].join(' > ')}`);
  }

  if (spec.ioBuses.length) {
    w();
    w('I/O');
    for (const b of spec.ioBuses) {
      w(`  ${b.id} on ${b.attach}, ${num(b.bandwidth)} GB/s per direction`);
      for (const n of spec.nics.filter((x) => x.bus === b.id)) {
        w(
          `    NIC ${n.id}: ${n.model}, ${num(n.bandwidth)} GB/s${n.dmaBytes !== undefined ? `, DMA ${size(n.dmaBytes)}` : ''}${n.latencyNs !== undefined ? `, ${num(n.latencyNs)} ns to its peer` : ''}`,
        );
      }
    }
  }

  w();
  const misses =
    spec.costs.missConcurrency === undefined
      ? ''
      : `, ${spec.costs.missConcurrency} misses in flight of ${lineBytesOf(spec)} B`;
  const streams =
    spec.costs.streamConcurrency === undefined ? '' : `, ${spec.costs.streamConcurrency} prefetched in a stream`;
  const stores = `; kernel copies store ${spec.costs.kernelStores ?? 'rfo'}, memcpy ${spec.costs.memcpyNonTemporalShare === undefined ? 'stores through the cache' : `goes non-temporal above ${num(spec.costs.memcpyNonTemporalShare)} of a thread's last-level cache share`}`;
  w(
    `Core costs: copy ${num(spec.costs.copyBandwidth)} GB/s, reduce ${num(spec.costs.reduceBandwidth)} GB/s (per core)${misses}${streams}${stores}`,
  );
  const k = spec.kernel;
  const mechanisms = Object.entries(k.mechanisms).sort(([a], [b]) => a.localeCompare(b));
  const on = mechanisms.filter(([, v]) => v).map(([m]) => m);
  const off = mechanisms.filter(([, v]) => !v).map(([m]) => m);
  w(
    `Kernel ${k.version}: mechanisms ${on.length ? on.join(', ') : 'none'}${off.length ? ` (not: ${off.join(', ')})` : ''}`,
  );
  w(
    `  syscall ${num(k.syscallNs)} ns, page ${size(k.pageBytes)}, pin ${num(k.pinPerPageNs)} ns/page, CMA lock ${k.cmaLockMode}`,
  );
  const params = Object.keys(k.params).sort();
  if (params.length) w(`  params: ${params.map((p) => `${p}=${num(k.params[p])}`).join(', ')}`);
  if (spec.measured?.oneCoreCopy !== undefined)
    w(`Measured on the real machine (not read by the model): one core copies ${num(spec.measured.oneCoreCopy)} GB/s`);

  if (spec.distances) {
    w();
    w('NUMA distances');
    for (const row of spec.distances) w(`  ${row.map((d) => String(d).padStart(4)).join('')}`);
  }
  if (spec.guessed.length) {
    w();
    w('guessed (documented defaults, not from the source):');
    for (const line of groupGuessed(spec.guessed)) w(`  ${line}`);
  }
  return `${out.join('\n')}\n`;
}

/** Shared caches nest inside the smallest larger one holding all their cores; cores go under the innermost. */
function renderLevel(
  w: (line: string) => void,
  caches: CacheSpec[],
  cores: CoreSpec[],
  privateOf: Map<number, CacheSpec[]>,
  indent: string,
): void {
  const tops = caches.filter((c) => !caches.some((o) => o !== c && contains(o, c)));
  const covered = new Set(tops.flatMap((c) => c.cores));
  const items: { first: number; line: () => void }[] = [];
  for (const top of tops) {
    items.push({
      first: Math.min(...top.cores),
      line: () => {
        w(`${indent}${cacheLabel(top)}, cores ${ranges(top.cores)}`);
        const inner = caches.filter((c) => c !== top && contains(top, c));
        renderLevel(
          w,
          inner,
          cores.filter((k) => top.cores.includes(k.id)),
          privateOf,
          `${indent}  `,
        );
      },
    });
  }
  for (const core of cores.filter((k) => !covered.has(k.id))) {
    items.push({ first: core.id, line: () => w(`${indent}${coreLabel(core, privateOf.get(core.id) ?? [])}`) });
  }
  items.sort((a, b) => a.first - b.first).forEach((i) => i.line());
}

function contains(outer: CacheSpec, inner: CacheSpec): boolean {
  return (
    inner.cores.every((c) => outer.cores.includes(c)) &&
    (outer.cores.length > inner.cores.length || outer.level > inner.level)
  );
}

function coreLabel(core: CoreSpec, privates: CacheSpec[]): string {
  const caches = [...privates].sort((a, b) => a.level - b.level).map((c) => `L${c.level} ${size(c.sizeBytes)}`);
  const threads = core.threads > 1 ? `, ${core.threads} threads` : '';
  return `Core ${core.id}: ${num(core.frequencyGHz)} GHz${threads}, NUMA ${core.numa}${caches.length ? `, private ${caches.join(' + ')}` : ''}`;
}

function cacheLabel(c: CacheSpec): string {
  return `${c.id} ${size(c.sizeBytes)}`;
}

function cacheSummary(caches: CacheSpec[]): string[] {
  const groups = new Map<string, { c: CacheSpec; count: number }>();
  for (const c of caches) {
    const sharing =
      (c.memorySide
        ? 'memory-side, every core'
        : c.cores.length === 1
          ? 'private'
          : `shared by ${c.cores.length} cores`) + (c.victim ? ', victim' : '');
    const key = `L${c.level} ${size(c.sizeBytes)} x{n}, ${sharing}, ${num(c.bandwidth)} GB/s, ${num(c.latencyNs)} ns${c.peerLatencyNs !== undefined ? ` (${num(c.peerLatencyNs)} ns core to core)` : ''}`;
    const g = groups.get(key);
    if (g) g.count++;
    else groups.set(key, { c, count: 1 });
  }
  return [...groups.entries()]
    .sort(([, a], [, b]) => a.c.level - b.c.level || a.c.sizeBytes - b.c.sizeBytes)
    .map(([key, g]) => key.replace('{n}', String(g.count)));
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** Short, stable number text: six significant digits at most, no trailing zeros. */
function num(x: number): string {
  return String(Number(x.toPrecision(6)));
}

function size(bytes: number): string {
  return formatBytes(bytes, { space: true });
}

/** "0-3,8,10-11" for a set of core ids. */
/**
 * Folds indexed field paths so a big import reads in a few lines: `caches[0].bandwidth`,
 * `caches[1].bandwidth`, `caches[1].latencyNs` become `caches[0-1]: bandwidth, latencyNs`
 * (every index listed had at least one of those fields guessed). Other paths stay as they are, in
 * first-seen order.
 */
function groupGuessed(paths: readonly string[]): string[] {
  const groups = new Map<string, { indices: number[]; fields: string[] }>();
  const lines: Array<string | { group: string }> = [];
  for (const path of paths) {
    const m = /^([A-Za-z]+)\[(\d+)\]\.(.+)$/.exec(path);
    if (!m) {
      lines.push(path);
      continue;
    }
    let g = groups.get(m[1]);
    if (!g) {
      g = { indices: [], fields: [] };
      groups.set(m[1], g);
      lines.push({ group: m[1] });
    }
    g.indices.push(Number(m[2]));
    if (!g.fields.includes(m[3])) g.fields.push(m[3]);
  }
  return lines.map((l) =>
    typeof l === 'string'
      ? l
      : `${l.group}[${ranges(groups.get(l.group)!.indices)}]: ${groups.get(l.group)!.fields.join(', ')}`,
  );
}

export function ranges(ids: readonly number[]): string {
  const sorted = [...new Set(ids)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < sorted.length; i++) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j] + 1) j++;
    parts.push(j > i ? `${sorted[i]}-${sorted[j]}` : `${sorted[i]}`);
    i = j;
  }
  return parts.join(',');
}
