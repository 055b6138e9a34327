// Several hosts of one machine joined by their NICs, as one MachineSpec the node layer runs as is.
// Host 0 keeps the machine's own names and numbers; host h shifts every core, package and NUMA
// number by h times the machine's (largest id + 1) and prefixes every other name with `h<h>.`, so
// nothing of one host shares a resource with another. Hosts have no link between them: only NIC
// DMA (sim/node/nic-dma.ts) crosses from one to another, over the wire of NICs of the same index.
import { NIC_MODELS, type NicModel } from './nic-models.ts';
import type { MachineSpec, NicSpec, VertexId } from './spec.ts';
import { ownEntry } from '../common/own-key.ts';

export interface ClusterOptions {
  hosts: number;
  /** NIC id of the machine → model of NIC_MODELS plugged in its slot on every host. */
  nics?: Record<string, string>;
  /** Added to every NIC's latency: cable and switch between the hosts (ns). */
  wireLatencyNs?: number;
}

/** How far host h's numbers are shifted: cores, packages, NUMA nodes. */
export interface HostStride {
  core: number;
  package: number;
  numa: number;
}

export function hostStride(spec: MachineSpec): HostStride {
  const next = (ids: number[]) => Math.max(-1, ...ids) + 1;
  return {
    core: next(spec.cores.map((c) => c.id)),
    package: next(spec.packages.map((p) => p.id)),
    numa: next(spec.numaNodes.map((n) => n.id)),
  };
}

/** Host `hosts` copies of `spec`. Throws Error naming the problem (callers locate it). */
export function clusterOf(spec: MachineSpec, opts: ClusterOptions): MachineSpec {
  if (spec.hosts !== undefined && spec.hosts > 1) throw new Error(`machine '${spec.name}' already has several hosts`);
  if (!Number.isInteger(opts.hosts) || opts.hosts < 1) throw new Error(`hosts must be a whole number >= 1`);
  if (spec.caches.some((c) => c.memorySide))
    throw new Error(`machine '${spec.name}' has a memory-side cache, which several hosts cannot share`);
  const nics = withModels(spec, opts.nics ?? {});
  const wire = opts.wireLatencyNs ?? 0;
  const stride = hostStride(spec);
  const hosts = Array.from({ length: opts.hosts }, (_, h) => h);
  const hubIds = new Set(spec.hubs.map((x) => x.id));
  const name = (h: number, id: string) => (h === 0 ? id : `h${h}.${id}`);
  const vertex = (h: number, v: VertexId): VertexId => {
    if (h === 0) return v;
    if (hubIds.has(v)) return name(h, v);
    const pkg = /^pkg(\d+)$/.exec(v);
    return pkg ? `pkg${Number(pkg[1]) + h * stride.package}` : v;
  };
  const routes =
    spec.routing.kind === 'table'
      ? Object.fromEntries(
          hosts.flatMap((h) =>
            Object.entries(spec.routing.kind === 'table' ? spec.routing.routes : {}).map(([key, path]) => {
              const [from, to] = key.split('->');
              return [`${vertex(h, from)}->${vertex(h, to)}`, path.map((v) => vertex(h, v))];
            }),
          ),
        )
      : undefined;
  return {
    ...spec,
    name: `${opts.hosts} x ${spec.name}`,
    description: `${opts.hosts} hosts of ${spec.description}`,
    packages: hosts.flatMap((h) => spec.packages.map((p) => ({ ...p, id: p.id + h * stride.package }))),
    hubs: hosts.flatMap((h) => spec.hubs.map((x) => ({ ...x, id: name(h, x.id) }))),
    numaNodes: hosts.flatMap((h) =>
      spec.numaNodes.map((n) => ({ ...n, id: n.id + h * stride.numa, attach: vertex(h, n.attach) })),
    ),
    cores: hosts.flatMap((h) =>
      spec.cores.map((c) => ({
        ...c,
        id: c.id + h * stride.core,
        package: c.package + h * stride.package,
        numa: c.numa + h * stride.numa,
        host: h,
      })),
    ),
    caches: hosts.flatMap((h) =>
      spec.caches.map((c) => ({ ...c, id: name(h, c.id), cores: c.cores.map((id) => id + h * stride.core) })),
    ),
    links: hosts.flatMap((h) =>
      spec.links.map((l) => ({ ...l, name: name(h, l.name), a: vertex(h, l.a), b: vertex(h, l.b) })),
    ),
    routing: routes ? { kind: 'table', routes } : spec.routing,
    ioBuses: hosts.flatMap((h) => spec.ioBuses.map((b) => ({ ...b, id: name(h, b.id), attach: vertex(h, b.attach) }))),
    nics: hosts.flatMap((h) =>
      nics.map((n) => ({
        ...n,
        id: name(h, n.id),
        bus: name(h, n.bus),
        host: h,
        ...(n.latencyNs !== undefined ? { latencyNs: n.latencyNs + wire } : {}),
      })),
    ),
    // NUMA distances stop at a host's edge; no SLIT spans hosts.
    distances: undefined,
    hosts: opts.hosts,
  };
}

/** The host's NICs with the models the scenario plugs in. */
function withModels(spec: MachineSpec, plugged: Record<string, string>): NicSpec[] {
  for (const [id, model] of Object.entries(plugged)) {
    if (!spec.nics.some((n) => n.id === id))
      throw new Error(
        `machine '${spec.name}' has no NIC '${id}' (NICs: ${spec.nics.map((n) => n.id).join(', ') || 'none'})`,
      );
    if (ownEntry(NIC_MODELS, model) === undefined)
      throw new Error(`unknown NIC model '${model}' (models: ${Object.keys(NIC_MODELS).join(', ')})`);
  }
  return spec.nics.map((n) => {
    const model: NicModel | undefined = plugged[n.id] !== undefined ? NIC_MODELS[plugged[n.id]] : undefined;
    return model ? { id: n.id, bus: n.bus, ...model } : n;
  });
}

/** Host of a core of a (possibly several-host) machine. */
export function hostOfCore(spec: MachineSpec, core: number): number {
  return spec.cores.find((c) => c.id === core)?.host ?? 0;
}
