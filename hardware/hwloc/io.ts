// I/O in an hwloc tree: PCI host bridges become I/O buses local to the object they hang under, and
// network adapters become NICs on their bus. A NIC is a PCI device of class 0x0200 (Ethernet),
// 0x0207 (InfiniBand network controller) or 0x0c06 (InfiniBand serial-bus class, used by Mellanox
// HCAs), or any device or OS device of OpenFabrics type (the verbs interface of an RDMA adapter).
import type { FoundBus, FoundNic, NicKind } from './found.ts';
import type { Attrs, HwObject } from './objects.ts';

const PCI_ETHERNET = 0x0200;
const PCI_INFINIBAND = 0x0207;
const PCI_SERIAL_INFINIBAND = 0x0c06;

// osdev_type: hwloc 1.x/2.x enumerate (HWLOC_OBJ_OSDEV_OPENFABRICS = 3); the 3.0 XML format writes
// a bit mask (HWLOC_OBJ_OSDEV_OPENFABRICS = 1 << 5).
const OSDEV_OPENFABRICS_ENUM = 3;
const OSDEV_OPENFABRICS_BIT = 1 << 5;

export interface IoContext {
  attrs: Attrs;
  /** Major version of the XML format (1 for files without a version). */
  formatMajor: number;
  cpusOf(obj: HwObject): number[];
  packageOf(obj: HwObject): number | undefined;
}

export function readIo(root: HwObject, ctx: IoContext): { buses: FoundBus[]; nics: FoundNic[] } {
  const buses: FoundBus[] = [];
  const nics: FoundNic[] = [];
  const unique = (wanted: string, taken: { id: string }[]) => {
    let id = wanted;
    for (let n = 2; taken.some((t) => t.id === id); n++) id = `${wanted}#${n}`;
    return id;
  };
  const isIo = (o: HwObject) => o.role === 'bridge' || o.role === 'pcidev' || o.role === 'osdev';
  const isOpenFabrics = (o: HwObject): boolean => {
    const t = ctx.attrs.int(o.el, 'osdev_type');
    if (t === undefined) return false;
    return ctx.formatMajor >= 3 ? (t & OSDEV_OPENFABRICS_BIT) !== 0 : t === OSDEV_OPENFABRICS_ENUM;
  };

  const openBus = (obj: HwObject, anchor: HwObject): string => {
    const id = unique(busName(obj, buses.length), buses);
    const pkg = ctx.packageOf(anchor);
    buses.push({ id, cpus: ctx.cpusOf(anchor), ...(pkg !== undefined ? { packageHint: pkg } : {}) });
    return id;
  };

  const addNic = (device: HwObject, osdevs: HwObject[], bus: string, pciClass: number | undefined) => {
    const fabric = osdevs.find(isOpenFabrics);
    const named = fabric ?? osdevs.find((o) => o.el.attrs.has('name'));
    const kind: NicKind =
      pciClass === PCI_ETHERNET
        ? 'ethernet'
        : pciClass === PCI_INFINIBAND || pciClass === PCI_SERIAL_INFINIBAND || fabric
          ? 'infiniband'
          : 'other';
    const busid = device.el.attrs.get('pci_busid');
    const id = unique(named?.el.attrs.get('name') ?? (busid ? `nic-${busid}` : `nic${nics.length}`), nics);
    const link = device.role === 'pcidev' ? ctx.attrs.num(device.el, 'pci_link_speed') : undefined;
    nics.push({
      id,
      model: nicModel(device, kind),
      bus,
      kind,
      ...(link !== undefined && link > 0 ? { linkBandwidth: link } : {}),
    });
  };

  const walk = (obj: HwObject, bus: string | undefined, anchor: HwObject) => {
    if (!isIo(obj)) {
      for (const child of obj.children) walk(child, undefined, obj);
      return;
    }
    const here = bus ?? openBus(obj, anchor);
    if (obj.role === 'pcidev') {
      const pciClass = classOf(obj.el.attrs.get('pci_type'));
      const osdevs = obj.children.filter((c) => c.role === 'osdev');
      if (
        pciClass === PCI_ETHERNET ||
        pciClass === PCI_INFINIBAND ||
        pciClass === PCI_SERIAL_INFINIBAND ||
        osdevs.some(isOpenFabrics)
      ) {
        addNic(obj, osdevs, here, pciClass);
      }
      for (const child of obj.children) if (child.role !== 'osdev') walk(child, here, anchor);
      return;
    }
    if (obj.role === 'osdev' && isOpenFabrics(obj)) addNic(obj, [obj], here, undefined);
    for (const child of obj.children) walk(child, here, anchor);
  };
  walk(root, undefined, root);
  return { buses, nics };
}

/** PCI class from pci_type="0200 [8086:10c9] [003c:003f] 01 00". */
function classOf(pciType: string | undefined): number | undefined {
  const m = pciType ? /^\s*([0-9a-fA-F]{4})\b/.exec(pciType) : null;
  return m ? parseInt(m[1], 16) : undefined;
}

function busName(obj: HwObject, n: number): string {
  // Host bridge: bridge_pci="0000:[00-0f]"; a device or bridge without one: pci_busid="0000:04:00.0".
  const range = /^([0-9a-fA-F]{4}):\[([0-9a-fA-F]{2})/.exec(obj.el.attrs.get('bridge_pci') ?? '');
  if (range && obj.role === 'bridge' && (obj.el.attrs.get('bridge_type') ?? '').startsWith('0-'))
    return `pci${range[1]}:${range[2]}`;
  const busid = /^([0-9a-fA-F]{4}):([0-9a-fA-F]{2})/.exec(obj.el.attrs.get('pci_busid') ?? '');
  if (busid) return `pci${busid[1]}:${busid[2]}`;
  if (range) return `pci${range[1]}:${range[2]}`;
  return `io${n}`;
}

function nicModel(device: HwObject, kind: NicKind): string {
  const vendor = device.infos.get('PCIVendor')?.trim();
  const name = device.infos.get('PCIDevice')?.trim();
  const ids = /\[([0-9a-fA-F]{4}:[0-9a-fA-F]{4})\]/.exec(device.el.attrs.get('pci_type') ?? '')?.[1];
  const label =
    kind === 'infiniband' ? 'InfiniBand adapter' : kind === 'ethernet' ? 'Ethernet adapter' : 'network adapter';
  const what = name || (ids ? `${label} [${ids}]` : label);
  return vendor ? `${vendor} ${what}` : what;
}
