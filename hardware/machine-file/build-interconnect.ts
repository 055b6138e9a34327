// Hubs, links, routing and I/O of a machine file. Links come in three shapes: `between` one pair,
// `mesh` every pair of a list (sockets of one board), `from`/`to` a star (a chipset's front-side buses).

import type { HubSpec, IoBusSpec, LinkSpec, NicSpec, RoutingSpec, VertexId } from '../spec.ts';
import type { Origins } from './origins.ts';
import { readBandwidth, readSize, readTime } from './units.ts';
import type { MapReader, YamlValue } from '../../common/yaml/value.ts';

const HUB_KEYS = ['id', 'description'] as const;
const LINK_KEYS = ['between', 'mesh', 'from', 'to', 'name', 'label', 'bandwidth', 'latency'] as const;
const ROUTING_KEYS = ['table'] as const;
const BUS_KEYS = ['id', 'attach', 'bandwidth', 'nics'] as const;
const NIC_KEYS = ['id', 'model', 'bandwidth', 'dmaBytes', 'latency'] as const;

export interface Interconnect {
  hubs: HubSpec[];
  links: LinkSpec[];
  routing: RoutingSpec;
  ioBuses: IoBusSpec[];
  nics: NicSpec[];
}

export function buildInterconnect(root: MapReader, origins: Origins): Interconnect {
  const hubs = (root.get('hubs')?.items() ?? []).map((node, i) => {
    const m = node.map(HUB_KEYS);
    origins.set(`hubs[${i}]`, node);
    origins.set(`hubs[${i}].id`, m.get('id'));
    return { id: m.req('id').text(), description: m.get('description')?.text() ?? '' };
  });

  const links: LinkSpec[] = [];
  for (const node of root.get('links')?.items() ?? []) {
    const m = node.map(LINK_KEYS);
    const shape = m.exclusive(['between', 'mesh', 'from'], true)!;
    if (shape !== 'from' && m.has('to')) m.get('to')!.fail(`'to' goes with 'from', not with '${shape}'`);
    if (shape !== 'between' && m.has('name'))
      m.get('name')!.fail(`'name' names a single link; use 'label' for a '${shape}' entry`);
    const label = m.get('label')?.text() ?? 'link';
    const bandwidth = readBandwidth(m.req('bandwidth'));
    const latencyNs = readTime(m.req('latency'));
    const pairs: [VertexId, VertexId, YamlValue][] = [];
    if (shape === 'between') {
      const ends = m.req('between').items();
      if (ends.length !== 2) m.req('between').fail(`'between' takes exactly two vertices, got ${ends.length}`);
      pairs.push([ends[0].text(), ends[1].text(), m.req('between')]);
    } else if (shape === 'mesh') {
      const members = m
        .req('mesh')
        .items()
        .map((v) => v.text());
      if (members.length < 2) m.req('mesh').fail('a mesh needs at least two vertices');
      for (let i = 0; i < members.length; i++)
        for (let j = i + 1; j < members.length; j++) pairs.push([members[i], members[j], m.req('mesh')]);
    } else {
      const center = m.req('from').text();
      for (const to of m.req('to').items()) pairs.push([center, to.text(), to]);
    }
    for (const [a, b, where] of pairs) {
      const index = links.length;
      links.push({ name: m.get('name')?.text() ?? `${label} ${a}-${b}`, a, b, bandwidth, latencyNs });
      origins.set(`links[${index}]`, node);
      origins.set(`links[${index}].name`, m.get('name') ?? node);
      origins.set(`links[${index}].a`, where);
      origins.set(`links[${index}].b`, where);
      origins.set(`links[${index}].bandwidth`, m.get('bandwidth'));
      origins.set(`links[${index}].latencyNs`, m.get('latency'));
    }
  }

  let routing: RoutingSpec = { kind: 'shortest' };
  const routingNode = root.get('routing');
  if (routingNode && !(routingNode.kind() === 'scalar' && routingNode.oneOf(['shortest']) === 'shortest')) {
    const tableNode = routingNode.map(ROUTING_KEYS).req('table');
    const routes: Record<string, VertexId[]> = {};
    origins.set('routing', routingNode);
    if (tableNode.kind() !== 'map')
      tableNode.fail(`expected a mapping of "from->to": [path], got ${tableNode.describe()}`);
    for (const [key, pathNode] of tableNode.entries()) {
      const path = pathNode.items().map((v) => v.text());
      if (path.length < 2) pathNode.fail('a route lists at least its two ends');
      routes[key] = path;
      origins.set(`routing.routes.${key}`, pathNode);
    }
    routing = { kind: 'table', routes };
  }

  const ioBuses: IoBusSpec[] = [];
  const nics: NicSpec[] = [];
  for (const node of root.get('ioBuses')?.items() ?? []) {
    const m = node.map(BUS_KEYS);
    const index = ioBuses.length;
    const id = m.req('id').text();
    ioBuses.push({ id, attach: m.req('attach').text(), bandwidth: readBandwidth(m.req('bandwidth')) });
    origins.set(`ioBuses[${index}]`, node);
    origins.set(`ioBuses[${index}].id`, m.get('id'));
    origins.set(`ioBuses[${index}].attach`, m.get('attach'));
    for (const nicNode of m.get('nics')?.items() ?? []) {
      const n = nicNode.map(NIC_KEYS);
      const dma = n.get('dmaBytes');
      const latency = n.get('latency');
      const nicIndex = nics.length;
      nics.push({
        id: n.req('id').text(),
        model: n.req('model').text(),
        bus: id,
        bandwidth: readBandwidth(n.req('bandwidth')),
        ...(dma ? { dmaBytes: readSize(dma) } : {}),
        ...(latency ? { latencyNs: readTime(latency) } : {}),
      });
      origins.set(`nics[${nicIndex}]`, nicNode);
      origins.set(`nics[${nicIndex}].id`, n.get('id'));
    }
  }
  return { hubs, links, routing, ioBuses, nics };
}
