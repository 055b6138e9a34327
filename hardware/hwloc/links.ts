// Interconnect links of an imported machine. Neither hwloc nor sysfs names the links between
// sockets, only (sometimes) a NUMA distance matrix. With no matrix every pair of packages gets a
// link (a full mesh, right for the two- and four-socket machines of the seed papers). With one, a
// pair whose distance is explained by a path through a third package gets no direct link: on a
// four-socket Opteron ring (local 10, neighbours 16, opposite 22) the opposite pair's excess of 12
// equals two neighbour hops of 6. Each kept link's latency is the one-hop latency scaled by its
// excess relative to the closest pair. A link of the kind the processor table's row describes (a
// socket-to-socket link, or a front-side bus to a shared memory hub) takes the row's figures.
import { IMPORT_DEFAULTS } from '../import-defaults.ts';
import type { ProcessorRow } from '../processor-table.ts';
import type { LinkSpec, VertexId } from '../spec.ts';

export interface LinkVertex {
  id: VertexId;
  /**
   * 'package': a socket. 'shared-memory': one memory node several packages reach over a bus.
   * 'memory-only': a NUMA node without cores. 'io': an I/O hub reachable from every package.
   */
  kind: 'package' | 'shared-memory' | 'memory-only' | 'io';
  /** Packages a hub is wired to ('shared-memory', 'io'). */
  packages: number[];
  /** NUMA nodes hanging off this vertex. */
  numa: number[];
}

interface Candidate {
  a: LinkVertex;
  b: LinkVertex;
  bandwidth: number;
  /** Which of the processor table's link kinds this is, if any (an I/O hub's links are none). */
  kind?: ProcessorRow['link']['kind'];
  /** Distance above local between the two ends, when a matrix says. */
  excess?: number;
  /** Whether the distance rule may drop it. */
  derivable: boolean;
}

export function buildLinks(
  vertices: LinkVertex[],
  distances: { ids: number[]; values: number[][] } | undefined,
  guessed: string[],
  figures?: ProcessorRow['link'],
): LinkSpec[] {
  const packages = vertices.filter((v) => v.kind === 'package');
  const pkgOf = (id: number) => packages.find((p) => idOf(p) === id);
  const excessOf = (a: LinkVertex, b: LinkVertex): number | undefined => {
    if (!distances) return undefined;
    let best: number | undefined;
    for (const na of a.numa) {
      for (const nb of b.numa) {
        const i = distances.ids.indexOf(na);
        const j = distances.ids.indexOf(nb);
        if (i < 0 || j < 0) continue;
        const e = distances.values[i][j] - (distances.values[i][i] + distances.values[j][j]) / 2;
        if (Number.isFinite(e) && (best === undefined || e < best)) best = e;
      }
    }
    return best;
  };
  const sharedHubs = vertices.filter((v) => v.kind === 'shared-memory');

  const candidates: Candidate[] = [];
  for (let i = 0; i < packages.length; i++) {
    for (let j = i + 1; j < packages.length; j++) {
      const a = packages[i];
      const b = packages[j];
      // Packages behind one memory hub talk through it (front-side bus), not directly.
      if (sharedHubs.some((h) => h.packages.includes(idOf(a)) && h.packages.includes(idOf(b)))) continue;
      candidates.push({
        a,
        b,
        bandwidth: IMPORT_DEFAULTS.link.bandwidth,
        kind: 'point-to-point',
        excess: excessOf(a, b),
        derivable: true,
      });
    }
  }
  for (const hub of vertices) {
    if (hub.kind === 'package') continue;
    const ends =
      hub.kind === 'memory-only' ? packages : hub.packages.map(pkgOf).filter((p): p is LinkVertex => p !== undefined);
    for (const pkg of ends) {
      candidates.push({
        a: pkg,
        b: hub,
        bandwidth: hub.kind === 'shared-memory' ? IMPORT_DEFAULTS.link.hubBandwidth : IMPORT_DEFAULTS.link.bandwidth,
        ...(hub.kind === 'shared-memory' ? { kind: 'fsb' as const } : {}),
        ...(hub.kind === 'memory-only' ? { kind: 'point-to-point' as const } : {}),
        excess: hub.kind === 'memory-only' ? excessOf(pkg, hub) : undefined,
        derivable: hub.kind === 'memory-only',
      });
    }
  }

  const key = (a: LinkVertex, b: LinkVertex) => (a.id < b.id ? `${a.id}|${b.id}` : `${b.id}|${a.id}`);
  const byPair = new Map(candidates.map((c) => [key(c.a, c.b), c]));
  const explainedByDetour = (c: Candidate): boolean => {
    if (!c.derivable || c.excess === undefined || c.excess <= 0) return false;
    return packages.some((via) => {
      if (via === c.a || via === c.b) return false;
      const first = byPair.get(key(c.a, via));
      const second = byPair.get(key(via, c.b));
      if (!first || !second || first.excess === undefined || second.excess === undefined) return false;
      return first.excess > 0 && second.excess > 0 && first.excess + second.excess <= c.excess!;
    });
  };
  let kept = candidates.filter((c) => !explainedByDetour(c));
  if (!connected(vertices, kept)) kept = candidates;

  const positive = kept.map((c) => c.excess).filter((e): e is number => e !== undefined && e > 0);
  const nearest = positive.length > 0 ? Math.min(...positive) : undefined;
  return kept.map((c, index) => {
    const known = figures !== undefined && figures.kind === c.kind ? figures : undefined;
    if (!known) guessed.push(`links[${index}].bandwidth`, `links[${index}].latencyNs`);
    const scale = c.excess !== undefined && c.excess > 0 && nearest !== undefined ? c.excess / nearest : 1;
    return {
      name: `${c.a.id}-${c.b.id}`,
      a: c.a.id,
      b: c.b.id,
      bandwidth: known?.bandwidth ?? c.bandwidth,
      latencyNs: (known?.latencyNs ?? IMPORT_DEFAULTS.link.latencyNs) * scale,
    };
  });
}

/** A package vertex carries its own package id as its only entry in `packages`. */
function idOf(v: LinkVertex): number {
  return v.packages[0];
}

function connected(vertices: LinkVertex[], links: Candidate[]): boolean {
  if (vertices.length <= 1) return true;
  const seen = new Set<VertexId>([vertices[0].id]);
  const stack = [vertices[0].id];
  while (stack.length > 0) {
    const v = stack.pop()!;
    for (const l of links) {
      const other = l.a.id === v ? l.b.id : l.b.id === v ? l.a.id : undefined;
      if (other !== undefined && !seen.has(other)) {
        seen.add(other);
        stack.push(other);
      }
    }
  }
  return vertices.every((v) => seen.has(v.id));
}
