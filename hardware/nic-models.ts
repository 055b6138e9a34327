// Network cards a scenario may plug into a machine's I/O slots (`hosts.nics`), each constant with
// its source. A machine file describes its own NICs in full; these models replace one of them.
import type { NicSpec } from './spec.ts';

export type NicModel = Omit<NicSpec, 'id' | 'bus' | 'host'>;

export const NIC_MODELS: Readonly<Record<string, NicModel>> = {
  'connectx-ddr': {
    model: 'Mellanox MT25418 ConnectX DDR InfiniBand',
    // datasheet: 4X DDR is 20 Gb/s of signalling, 16 Gb/s of data after 8b/10b = 2.0 GB/s per direction
    bandwidth: 2.0,
    // estimate: 128 B, a common PCIe max payload of that generation (as in the opteron-nuioa preset)
    dmaBytes: 128,
    // datasheet: Mellanox ConnectX IB product brief, 1.2 us MPI ping latency end to end
    latencyNs: 1200,
  },
  'myri-10g': {
    model: 'Myricom Myri-10G (10G-PCIE-8A)',
    // datasheet: Myri-10G carries 10 Gb/s of data per direction = 1.25 GB/s
    bandwidth: 1.25,
    // estimate: 256 B, a PCIe max payload the Lanai Z8E supports; unknown which the seed's hosts used
    dmaBytes: 256,
    // datasheet: Myricom MX-10G performance page, about 2.3 us one-way MPI latency
    latencyNs: 2300,
  },
};

export const NIC_MODEL_NAMES = Object.keys(NIC_MODELS);
