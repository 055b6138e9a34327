// NUMA distance matrices in hwloc XML. v2 writes <distances2 type="NUMANode" nbobjs= kind=
// indexing=> with <indexes> and <u64values> bodies (split over several elements when long), and
// <distances2hetero> whose indexes are "Type:gp_index" pairs over mixed object types. v1 writes
// <distances nbobjs= relative_depth= latency_base=> with one <latency value=> per entry, relative
// to the local latency. Only latency-like matrices are kept; bandwidth matrices (NVLink) are not
// NUMA distances.
import { InputError } from '../../common/input-error.ts';
import type { FoundDistances } from './found.ts';
import { at, type Attrs } from './objects.ts';
import type { XmlElement } from './xml.ts';

// hwloc_distances_kind_e: bit 3 = HWLOC_DISTANCES_KIND_MEANS_BANDWIDTH.
const KIND_MEANS_BANDWIDTH = 8;

interface NumaRef {
  id: number;
  gp?: number;
}

/** The best NUMA latency matrix in the file: homogeneous v2 first, then heterogeneous, then v1. */
export function readDistances(topology: XmlElement, numa: NumaRef[], attrs: Attrs): FoundDistances | undefined {
  const found: { rank: number; d: FoundDistances }[] = [];
  visit(topology, (el) => {
    if (el.name === 'distances2') {
      const d = readV2(el, numa, attrs, false);
      if (d) found.push({ rank: 0, d });
    } else if (el.name === 'distances2hetero') {
      const d = readV2(el, numa, attrs, true);
      if (d) found.push({ rank: 1, d });
    } else if (el.name === 'distances') {
      const d = readV1(el, numa, attrs);
      if (d) found.push({ rank: 2, d });
    }
  });
  found.sort((a, b) => a.rank - b.rank || b.d.ids.length - a.d.ids.length);
  return found[0]?.d;
}

function visit(el: XmlElement, f: (el: XmlElement) => void): void {
  f(el);
  for (const child of el.children) visit(child, f);
}

function readV2(el: XmlElement, numa: NumaRef[], attrs: Attrs, hetero: boolean): FoundDistances | undefined {
  const n = attrs.int(el, 'nbobjs');
  if (n === undefined) throw new InputError(`<${el.name}> without nbobjs`, at(el, attrs.file, `${el.name}.nbobjs`));
  const indexes = el.children.filter((c) => c.name === 'indexes').flatMap((c) => c.text.trim().split(/\s+/).filter((w) => w !== ''));
  const values = el.children.filter((c) => c.name === 'u64values').flatMap((c) => attrs.numbers(c, `${el.name}.u64values`));
  if (indexes.length !== n) {
    throw new InputError(`<${el.name}> lists ${indexes.length} indexes for nbobjs="${n}"`, at(el, attrs.file, `${el.name}.indexes`));
  }
  if (values.length !== n * n) {
    throw new InputError(`<${el.name}> holds ${values.length} values, expected nbobjs^2 = ${n * n}`, at(el, attrs.file, `${el.name}.u64values`));
  }
  const kind = attrs.int(el, 'kind') ?? 0;
  if (kind & KIND_MEANS_BANDWIDTH) return undefined;
  if (!hetero && el.attrs.get('type') !== 'NUMANode') return undefined;
  const byGp = (gp: number) => numa.find((x) => x.gp === gp)?.id;
  const ids: (number | undefined)[] = indexes.map((word) => {
    if (hetero) {
      const m = /^(\w+):(\d+)$/.exec(word);
      if (!m) throw new InputError(`"${word}" is not a Type:gp_index pair`, at(el, attrs.file, `${el.name}.indexes`));
      return m[1] === 'NUMANode' ? byGp(Number(m[2])) : undefined;
    }
    if (!/^\d+$/.test(word)) throw new InputError(`index "${word}" is not an integer`, at(el, attrs.file, `${el.name}.indexes`));
    const index = Number(word);
    return el.attrs.get('indexing') === 'gp' ? byGp(index) : numa.some((x) => x.id === index) ? index : undefined;
  });
  const keep = ids.map((id, i) => (id === undefined ? -1 : i)).filter((i) => i >= 0);
  if (keep.length < 2) return undefined;
  return positive({ ids: keep.map((i) => ids[i]!), values: keep.map((i) => keep.map((j) => values[i * n + j])) }, el, attrs);
}

/** A latency of zero or less between NUMA nodes is meaningless, and would divide links by zero. */
function positive(d: FoundDistances, el: XmlElement, attrs: Attrs): FoundDistances {
  for (const row of d.values) {
    const bad = row.find((v) => !(v > 0));
    if (bad !== undefined) throw new InputError(`NUMA distance ${bad} in <${el.name}> must be positive`, at(el, attrs.file, `${el.name}.values`));
  }
  return d;
}

function readV1(el: XmlElement, numa: NumaRef[], attrs: Attrs): FoundDistances | undefined {
  const n = attrs.int(el, 'nbobjs');
  if (n === undefined) throw new InputError('<distances> without nbobjs', at(el, attrs.file, 'distances.nbobjs'));
  const base = attrs.num(el, 'latency_base') ?? 1;
  const latencies = el.children.filter((c) => c.name === 'latency');
  if (latencies.length !== n * n) {
    throw new InputError(`<distances> holds ${latencies.length} <latency> values, expected nbobjs^2 = ${n * n}`, at(el, attrs.file, 'distances.latency'));
  }
  const values = latencies.map((c) => {
    const v = attrs.num(c, 'value');
    if (v === undefined) throw new InputError('<latency> without value', at(c, attrs.file, 'latency.value'));
    return v * base;
  });
  // v1 matrices index objects at one depth in logical (document) order; they are NUMA distances
  // when the counts match, which is the only kind hwloc 1.x gathered from the OS.
  if (n !== numa.length || n < 2) return undefined;
  return positive({ ids: numa.map((x) => x.id), values: Array.from({ length: n }, (_, i) => values.slice(i * n, i * n + n)) }, el, attrs);
}
