// The processor table: one row per processor generation, each number with its source. Where a
// preset of hardware/presets/ describes a machine of the generation, the row carries the preset's
// sourced figures in cycles (preset ns x the preset's clock), so an imported machine of that
// generation and the preset agree at the same clock. Memory and socket links are the generation's
// usual platform: an import cannot see how many DIMMs are populated or which links are wired.
// Cache bandwidths count what one cache instance delivers (load + store paths for an L1).

import type { ProcessorRow } from './processor-table.ts';

/** Intel's model strings: "Intel(R) Xeon(R) CPU E5-2670 0 @ 2.60GHz". */
const xeon = (sku: string) => new RegExp(`Xeon.*\\b${sku}`);

/** The Nehalem core and its private caches, the same in every part of the generation (preset dancer's figures in cycles). */
const NEHALEM_CORE: Pick<ProcessorRow, 'core'> & { caches: Pick<ProcessorRow['caches'], 1 | 2> } = {
  caches: {
    1: {
      latencyCycles: 4, // datasheet (preset dancer): 4-cycle load-to-use on Nehalem
      bytesPerCycle: 32, // estimate (preset dancer): one 16 B load + one 16 B store per cycle
    },
    2: {
      latencyCycles: 10, // datasheet (preset dancer): 10-cycle L2 hit (Intel optimization manual, Nehalem)
      bytesPerCycle: 32, // estimate (preset dancer): 32 B per cycle L2-to-L1
    },
  },
  core: {
    copyBytesPerCycle: 8, // estimate (preset dancer): half the 16 B/cycle store port
    reduceBytesPerCycle: 8, // estimate (preset dancer): half of one 16 B load port
    missConcurrency: 10, // datasheet: 10 L1D fill buffers per Nehalem core (Intel optimization manual)
    streamConcurrency: 16, // estimate (preset dancer): Nehalem's superqueue, 16 entries for the L2's outstanding misses
    kernelStores: 'full-line', // datasheet: copy_user is `rep movs` on 64-bit family-6 Intel (REP_GOOD), fast strings skip the RFO (Intel SDM Vol. 3A 8.2.4)
  },
};

export const PROCESSOR_ROWS: readonly ProcessorRow[] = [
  {
    id: 'core-tigerton',
    name: 'Intel Core microarchitecture (Xeon 7300 Tigerton)',
    match: { vendor: 'GenuineIntel', family: 6, models: [15], names: [xeon('[EXL]73\\d\\d\\b')] },
    clockGHz: 2.4, // preset zoot: Xeon E7340 at 2.40 GHz
    caches: {
      1: {
        latencyCycles: 3, // datasheet (preset zoot): 3-cycle load-to-use on Core 2
        bytesPerCycle: 32, // estimate (preset zoot): one 16 B load + one 16 B store per cycle
      },
      2: {
        latencyCycles: 14, // estimate (preset zoot): 14-cycle Core 2 L2 hit
        bytesPerCycle: 32, // estimate (preset zoot): 32 B per cycle L2-to-L1 fill path, shared by the pair
      },
    },
    core: {
      copyBytesPerCycle: 8, // estimate (preset zoot): memcpy from L2 at half the 16 B/cycle store port
      reduceBytesPerCycle: 8, // estimate (preset zoot): half of one 16 B load port
      missConcurrency: 8, // datasheet: 8 L1D misses in flight on Intel Core (Intel optimization manual)
      // streamConcurrency absent: estimate (preset zoot): single-thread memcpy on front-side-bus
      // Core 2 systems sustains what the 8 L1D misses give; the prefetcher adds nothing the bus takes
      kernelStores: 'full-line', // datasheet: copy_user is `rep movs` on 64-bit family-6 Intel (REP_GOOD), fast strings skip the RFO (Intel SDM Vol. 3A 8.2.4)
    },
    memory: {
      channels: 4, // datasheet: Intel 7300 chipset, 4 FB-DIMM channels
      megaTransfers: 667, // datasheet: Intel 7300 chipset, DDR2-667 FB-DIMMs
      streamShare: 0.5, // estimate (preset zoot): copies are half writes and FB-DIMM sustains about half its peak
      latencyNs: 90, // estimate (preset zoot): ~110 ns FB-DIMM load latency less the front-side-bus hop
    },
    link: {
      kind: 'fsb', // datasheet: one dedicated front-side bus per socket to the 7300 memory hub
      bandwidth: 8.53, // datasheet: FSB 1066 MT/s x 8 bytes
      latencyNs: 20, // estimate (preset zoot): FSB arbitration and a 64 B line in 8 beats, plus snoop-filter lookup
    },
  },
  {
    id: 'penryn-dunnington',
    name: 'Intel Penryn (Xeon 7400 Dunnington)',
    match: { vendor: 'GenuineIntel', family: 6, models: [29], names: [xeon('[EXL]74\\d\\d\\b')] },
    clockGHz: 2.66, // preset dunnington: Xeon X7460 at 2.66 GHz
    caches: {
      1: {
        latencyCycles: 3, // datasheet (preset dunnington): 3-cycle load-to-use on Penryn
        bytesPerCycle: 32, // estimate (preset dunnington): one 16 B load + one 16 B store per cycle
      },
      2: {
        latencyCycles: 15, // estimate (preset dunnington): ~15-cycle Penryn L2 hit
        bytesPerCycle: 32, // estimate (preset dunnington): 32 B per cycle L2-to-L1 fill path, shared by the pair
      },
      3: {
        latencyCycles: 40, // estimate (preset dunnington): ~40-cycle L3 hit behind the L2s
        bytesPerCycle: 16, // estimate (preset dunnington): 16 B per cycle from the L3 into the three L2s
      },
    },
    core: {
      copyBytesPerCycle: 8, // estimate (preset dunnington): half the 16 B/cycle store port
      reduceBytesPerCycle: 8, // estimate (preset dunnington): half of one 16 B load port
      missConcurrency: 8, // datasheet: Penryn keeps 8 L1D misses in flight, as Intel Core (Intel optimization manual)
      // streamConcurrency absent: estimate: a front-side-bus system, as the Tigerton row
      kernelStores: 'full-line', // datasheet: copy_user is `rep movs` on 64-bit family-6 Intel (REP_GOOD), fast strings skip the RFO (Intel SDM Vol. 3A 8.2.4)
    },
    memory: {
      channels: 4, // datasheet: Xeon 7400 sits on the Intel 7300 chipset, 4 FB-DIMM channels (the preset's IBM eX4 chassis is not the usual platform)
      megaTransfers: 667, // datasheet: Intel 7300 chipset, DDR2-667 FB-DIMMs
      streamShare: 0.5, // estimate: as the Tigerton row, same chipset
      latencyNs: 90, // estimate: as the Tigerton row, same chipset
    },
    link: {
      kind: 'fsb', // datasheet: one front-side bus per socket to the 7300 memory hub
      bandwidth: 8.53, // datasheet (preset dunnington): FSB 1066 MT/s x 8 bytes
      latencyNs: 20, // estimate (preset dunnington): FSB transfer of a 64 B line plus snoop-filter lookup
    },
  },
  {
    id: 'nehalem-ep',
    name: 'Intel Nehalem-EP (Xeon 5500)',
    match: { vendor: 'GenuineIntel', family: 6, models: [26], names: [xeon('[EXLW]55\\d\\d\\b')] },
    clockGHz: 2.27, // preset dancer: Xeon E5520 at 2.27 GHz
    caches: {
      ...NEHALEM_CORE.caches,
      3: {
        latencyCycles: 39, // estimate (preset dancer): ~39 core cycles measured for Nehalem L3 hits
        bytesPerCycle: 30, // estimate (preset dancer): 32 B per uncore cycle at 2.13 GHz under a 2.27 GHz core
      },
    },
    core: NEHALEM_CORE.core,
    memory: {
      channels: 3, // datasheet: three DDR3 channels per Xeon 5500 socket
      megaTransfers: 1066, // datasheet (preset dancer): DDR3-1066 on the E5520; estimate for the X55xx parts that run 1333
      streamShare: 0.625, // estimate (preset dancer): Nehalem-EP STREAM sustains ~60-65% of peak, 16 of 25.6 GB/s
      writeCost: 1.32, // estimate (preset dancer): DDR bus turnarounds as Intel MLC measures on Broadwell-EP
      latencyNs: 65, // estimate (preset dancer): ~65 ns local DRAM latency commonly measured on Nehalem-EP
    },
    link: {
      kind: 'point-to-point',
      bandwidth: 11.72, // datasheet (preset dancer): E5520 QPI at 5.86 GT/s x 2 bytes per direction
      latencyNs: 40, // estimate (preset dancer): remote DRAM ~105 ns vs ~65 ns local
    },
  },
  {
    id: 'nehalem-lynnfield',
    name: 'Intel Nehalem Lynnfield (Core i5-700, i7-800, Xeon 3400)',
    // Family 6 model 30 (1Eh): Lynnfield, Clarksfield and Jasper Forest (Intel SDM Vol. 4, table
    // of DisplayFamily_DisplayModel 06_1EH). cpuinfo names it "Core(TM) i5 CPU 750 @ 2.67GHz".
    match: {
      vendor: 'GenuineIntel',
      family: 6,
      models: [30],
      names: [/Core.*\bi[57][ -](CPU\s+)?[78][5-8]0\b/, xeon('[XL]34\\d\\d\\b')],
    },
    clockGHz: 2.67, // preset lynnfield: Core i5-750 at 2.67 GHz
    caches: {
      ...NEHALEM_CORE.caches,
      3: {
        latencyCycles: 39, // estimate (preset lynnfield): ~39 core cycles measured for Nehalem L3 hits
        bytesPerCycle: 25.5, // estimate (preset lynnfield): 32 B per uncore cycle at 2.13 GHz under a 2.67 GHz core
      },
    },
    core: NEHALEM_CORE.core,
    memory: {
      channels: 2, // datasheet: two DDR3 channels (Core i5-700 datasheet)
      megaTransfers: 1333, // seed (Cheng & Gu): DDR3-1333
      streamShare: 0.625, // estimate (preset lynnfield): Nehalem STREAM sustains ~60-65% of peak, as Nehalem-EP
      writeCost: 1.32, // estimate (preset lynnfield): DDR bus turnarounds as Intel MLC measures on Broadwell-EP
      latencyNs: 60, // estimate (preset lynnfield): a little below Nehalem-EP's ~65 ns, no other socket to snoop
    },
    link: {
      kind: 'point-to-point',
      bandwidth: 11.72, // estimate: unused, Lynnfield runs only in one-socket systems; Nehalem-EP's QPI (5.86 GT/s x 2 B) stands in
      latencyNs: 40, // estimate: unused for the same reason; Nehalem-EP's remote-access penalty stands in
    },
  },
  {
    id: 'nehalem-ex',
    name: 'Intel Nehalem-EX (Xeon 7500/6500)',
    match: { vendor: 'GenuineIntel', family: 6, models: [46], names: [xeon('[EXL][67]5\\d\\d\\b')] },
    clockGHz: 2.0, // preset saturn: Xeon X7550 at 2.00 GHz
    caches: {
      1: {
        latencyCycles: 4, // datasheet (preset saturn): 4-cycle load-to-use
        bytesPerCycle: 32, // estimate (preset saturn): one 16 B load + one 16 B store per cycle
      },
      2: {
        latencyCycles: 10, // datasheet (preset saturn): 10-cycle L2 hit
        bytesPerCycle: 32, // estimate (preset saturn): 32 B per cycle L2-to-L1
      },
      3: {
        latencyCycles: 50, // estimate (preset saturn): ring L3 hits of Nehalem-EX take ~50 cycles
        bytesPerCycle: 64, // estimate (preset saturn): bidirectional 32 B ring serving the slices
      },
    },
    core: {
      copyBytesPerCycle: 8, // estimate (preset saturn): half the 16 B/cycle store port
      reduceBytesPerCycle: 8, // estimate (preset saturn): half of one 16 B load port
      missConcurrency: 10, // datasheet: 10 L1D fill buffers per Nehalem core (Intel optimization manual)
      streamConcurrency: 16, // estimate (preset saturn): Nehalem superqueue
      kernelStores: 'full-line', // datasheet: copy_user is `rep movs` on 64-bit family-6 Intel (REP_GOOD), fast strings skip the RFO (Intel SDM Vol. 3A 8.2.4)
    },
    memory: {
      channels: 8, // datasheet: two controllers x two SMI links x two DDR3 channels behind each Millbrook buffer
      megaTransfers: 1066, // datasheet: Xeon 7500 runs DDR3-1066 behind the SMI buffers
      streamShare: 0.257, // estimate (preset saturn): 4-socket Nehalem-EX servers reach ~70 GB/s STREAM, 17.5 of 68.2 GB/s per socket through the SMI buffers
      latencyNs: 110, // estimate (preset saturn): SMI-buffered DDR3 adds ~40 ns over Nehalem-EP's ~65 ns
    },
    link: {
      kind: 'point-to-point',
      bandwidth: 25.6, // estimate (preset saturn): 2-socket 7500-chipset boards join the sockets with two QPI links of 6.4 GT/s x 2 bytes
      latencyNs: 40, // estimate (preset saturn): one QPI hop, as on Nehalem-EP
    },
  },
  {
    id: 'westmere-ep',
    name: 'Intel Westmere-EP (Xeon 5600)',
    match: { vendor: 'GenuineIntel', family: 6, models: [44], names: [xeon('[EXLW]56\\d\\d\\b')] },
    clockGHz: 2.67, // preset westmere: Xeon X5650 at 2.67 GHz
    caches: {
      1: {
        latencyCycles: 4, // datasheet (preset westmere): 4-cycle load-to-use
        bytesPerCycle: 32, // estimate (preset westmere): one 16 B load + one 16 B store per cycle
      },
      2: {
        latencyCycles: 10, // datasheet (preset westmere): 10-cycle L2 hit
        bytesPerCycle: 32, // estimate (preset westmere): 32 B per cycle L2-to-L1
      },
      3: {
        latencyCycles: 43, // estimate (preset westmere): ~43-cycle Westmere L3 hit
        bytesPerCycle: 32, // estimate (preset westmere): 32 B per uncore cycle into the core array
      },
    },
    core: {
      copyBytesPerCycle: 8, // estimate (preset westmere): half the 16 B/cycle store port
      reduceBytesPerCycle: 8, // estimate (preset westmere): half of one 16 B load port
      missConcurrency: 10, // datasheet: 10 L1D fill buffers, as Nehalem (Intel optimization manual)
      streamConcurrency: 16, // estimate (preset westmere): Westmere keeps Nehalem's superqueue
      kernelStores: 'full-line', // datasheet: copy_user is `rep movs` on 64-bit family-6 Intel (REP_GOOD), fast strings skip the RFO (Intel SDM Vol. 3A 8.2.4)
    },
    memory: {
      channels: 3, // datasheet: three DDR3 channels per Xeon 5600 socket
      megaTransfers: 1333, // datasheet (preset westmere): X5650 runs DDR3-1333
      streamShare: 0.625, // estimate (preset westmere): 2-socket Westmere-EP STREAM reaches ~40 GB/s, 20 of 32 GB/s per socket
      writeCost: 1.32, // estimate (preset westmere): DDR bus turnarounds as Intel MLC measures on Broadwell-EP
      latencyNs: 70, // estimate (preset westmere): ~70 ns local DRAM latency commonly measured on Westmere-EP
    },
    link: {
      kind: 'point-to-point',
      bandwidth: 12.8, // datasheet (preset westmere): QPI at 6.4 GT/s x 2 bytes per direction
      latencyNs: 40, // estimate (preset westmere): remote DRAM ~110 ns vs ~70 ns local
    },
  },
  {
    id: 'sandy-bridge-ep',
    name: 'Intel Sandy Bridge-EP (Xeon E5-2600/4600/1600)',
    // No version suffix: "E5-2670 0" and "E5-2670" are Sandy Bridge, "E5-2670 v2" is Ivy Bridge.
    match: { vendor: 'GenuineIntel', family: 6, models: [45], names: [xeon('E5-[124]6\\d\\d[A-Z]*(?!\\s*v\\d)')] },
    clockGHz: 2.6, // datasheet: Xeon E5-2670 at 2.6 GHz, the common part of the generation
    caches: {
      1: {
        latencyCycles: 4, // datasheet: 4-cycle L1D load-to-use (Intel optimization manual, Sandy Bridge)
        bytesPerCycle: 48, // datasheet: two 16 B loads + one 16 B store per cycle (Intel optimization manual, Sandy Bridge)
      },
      2: {
        latencyCycles: 12, // datasheet: 12-cycle L2 hit (Intel optimization manual, Sandy Bridge)
        bytesPerCycle: 32, // datasheet: 32 B per cycle L2-to-L1 (Intel optimization manual, Sandy Bridge)
      },
      3: {
        latencyCycles: 40, // estimate: ~26-31 cycles on the 4-slice client ring (Intel optimization manual), more on the 8-slice EP ring; ~15 ns at 2.6 GHz
        bytesPerCycle: 9, // estimate: as the Broadwell-EP row, ~9 B per cycle sustained from each core's ring slice
        perSharer: true,
      },
    },
    core: {
      copyBytesPerCycle: 8, // estimate: memcpy from L2 at half the 16 B/cycle store port, as the Westmere row
      reduceBytesPerCycle: 16, // estimate: half of two 16 B loads per cycle
      missConcurrency: 10, // datasheet: 10 L1D fill buffers (Intel optimization manual, Sandy Bridge)
      streamConcurrency: 16, // estimate: the L2 superqueue of 16 entries kept from Nehalem (Intel optimization manual)
      kernelStores: 'full-line', // datasheet: copy_user is `rep movs` on 64-bit family-6 Intel (REP_GOOD), fast strings skip the RFO (Intel SDM Vol. 3A 8.2.4)
    },
    memory: {
      channels: 4, // datasheet: four DDR3 channels per Xeon E5-2600 socket
      megaTransfers: 1600, // datasheet: DDR3-1600, the fastest the E5-2600 supports; slower parts and fuller boards run 1333
      streamShare: 0.75, // estimate: 2-socket E5-2670 STREAM triad is commonly reported near 75-80 GB/s, ~38 of 51.2 GB/s per socket
      writeCost: 1.32, // estimate: DDR bus turnarounds as Intel MLC measures on Broadwell-EP
      latencyNs: 80, // estimate: ~80 ns local DRAM latency commonly measured on Sandy Bridge-EP, between Westmere-EP and Broadwell-EP
    },
    link: {
      kind: 'point-to-point',
      bandwidth: 32, // datasheet: two QPI 1.1 links at 8 GT/s x 2 bytes per direction between the two sockets
      latencyNs: 45, // estimate: remote DRAM ~125 ns vs ~80 ns local
    },
  },
  {
    id: 'broadwell-ep',
    name: 'Intel Broadwell-EP (Xeon E5 v4)',
    match: { vendor: 'GenuineIntel', family: 6, models: [79], names: [xeon('E5-[124]6\\d\\d[A-Z]* v4')] },
    clockGHz: 2.4, // preset broadwell: Xeon E5-2680 v4 at 2.4 GHz
    caches: {
      1: {
        latencyCycles: 4, // datasheet (preset broadwell): 4-cycle load-to-use
        bytesPerCycle: 96, // estimate (preset broadwell): two 32 B loads + one 32 B store per cycle
      },
      2: {
        latencyCycles: 12, // datasheet (preset broadwell): 12-cycle L2 hit
        bytesPerCycle: 64, // estimate (preset broadwell): 64 B per cycle L2-to-L1
      },
      3: {
        latencyCycles: 43, // estimate (preset broadwell): ~18 ns L3 hit commonly measured, x 2.4 GHz
        bytesPerCycle: 9, // estimate (preset broadwell): ~9 B per cycle sustained from each core's ring slice
        perSharer: true,
      },
    },
    core: {
      copyBytesPerCycle: 16, // estimate (preset broadwell): half the 32 B/cycle store port
      reduceBytesPerCycle: 32, // estimate (preset broadwell): half of two 32 B loads per cycle
      missConcurrency: 10, // datasheet: 10 L1D fill buffers per Haswell/Broadwell core (Intel optimization manual)
      streamConcurrency: 16, // estimate (preset broadwell): Haswell/Broadwell L2 superqueue of 16 entries
      kernelStores: 'full-line', // datasheet: copy_user is `rep movs` on 64-bit family-6 Intel (REP_GOOD), fast strings skip the RFO (Intel SDM Vol. 3A 8.2.4)
    },
    memory: {
      channels: 4, // datasheet: four DDR4 channels per Xeon E5 v4 socket
      megaTransfers: 2400, // datasheet (preset broadwell): DDR4-2400
      streamShare: 0.846, // STREAM (preset broadwell): up to 65 GB/s triad per socket on Xeon E5 v4 (AnandTech), of 76.8 GB/s peak
      writeCost: 1.32, // measurement (preset broadwell): Intel MLC on a 2-socket Xeon E5-2630 v4, 1:1 reads:writes 80.6 against 93.6 GB/s all reads
      latencyNs: 90, // estimate (preset broadwell): ~90 ns local DRAM latency on Broadwell-EP
    },
    link: {
      kind: 'point-to-point',
      bandwidth: 38.4, // datasheet (preset broadwell): two QPI links at 9.6 GT/s x 2 bytes per direction each
      latencyNs: 50, // estimate (preset broadwell): remote DRAM ~140 ns vs ~90 ns local
    },
  },
  {
    id: 'sapphire-rapids',
    name: 'Intel Sapphire Rapids (4th generation Xeon Scalable)',
    match: {
      vendor: 'GenuineIntel',
      family: 6,
      models: [143],
      names: [xeon('(?:Platinum|Gold|Silver|Bronze) [3-9]4\\d\\d')],
    },
    clockGHz: 2.0, // preset sapphire-rapids: Xeon Platinum 8480+ base clock 2.0 GHz
    caches: {
      1: {
        latencyCycles: 5, // datasheet (preset sapphire-rapids): 5-cycle load-to-use
        bytesPerCycle: 192, // estimate (preset sapphire-rapids): two 64 B loads + one 64 B store per cycle
      },
      2: {
        latencyCycles: 16, // datasheet (preset sapphire-rapids): 16-cycle L2 hit
        bytesPerCycle: 64, // estimate (preset sapphire-rapids): 64 B per cycle L2-to-L1
      },
      3: {
        latencyCycles: 66, // estimate (preset sapphire-rapids): ~33 ns L3 hit measured on the large mesh, x 2.0 GHz
        bytesPerCycle: 8, // estimate (preset sapphire-rapids): ~8 B per cycle sustained per core over the mesh
        perSharer: true,
      },
    },
    core: {
      copyBytesPerCycle: 32, // estimate (preset sapphire-rapids): half of two 32 B stores per cycle
      reduceBytesPerCycle: 64, // estimate (preset sapphire-rapids): half of two 64 B loads per cycle
      missConcurrency: 16, // datasheet: 16 L1D fill buffers per Golden Cove core (Intel optimization manual)
      streamConcurrency: 48, // estimate (preset sapphire-rapids): Golden Cove's L2 tracks 48 outstanding misses (Intel Architecture Day 2021)
      kernelStores: 'full-line', // datasheet: copy_user is `rep movs` on 64-bit family-6 Intel (REP_GOOD), fast strings skip the RFO (Intel SDM Vol. 3A 8.2.4)
    },
    memory: {
      channels: 8, // datasheet: eight DDR5 channels per socket
      megaTransfers: 4800, // datasheet (preset sapphire-rapids): DDR5-4800
      streamShare: 0.78, // estimate (preset sapphire-rapids): STREAM sustains ~75-80% of the 307.2 GB/s peak, 240 GB/s
      writeCost: 1.26, // estimate (preset sapphire-rapids): Intel MLC on a 2-socket Xeon Platinum 8269 (Cascade Lake), 1:1 reads:writes 199.3 against 225.1 GB/s all reads
      latencyNs: 115, // estimate (preset sapphire-rapids): ~115 ns local DRAM latency on Sapphire Rapids
    },
    link: {
      kind: 'point-to-point',
      bandwidth: 128, // datasheet (preset sapphire-rapids): four UPI 2.0 links at 16 GT/s, ~32 GB/s per direction each
      latencyNs: 75, // estimate (preset sapphire-rapids): remote socket memory ~190 ns vs ~115 ns local
    },
  },
  {
    id: 'knights-landing',
    name: 'Intel Knights Landing (Xeon Phi 7200)',
    match: { vendor: 'GenuineIntel', family: 6, models: [87], names: [/Xeon Phi.*\b72\d\d\b/] },
    clockGHz: 1.4, // preset knl: Xeon Phi 7250 at 1.4 GHz
    caches: {
      1: {
        latencyCycles: 4, // datasheet (preset knl): 4-cycle load-to-use
        bytesPerCycle: 192, // estimate (preset knl): two 64 B loads + one 64 B store per cycle
      },
      2: {
        latencyCycles: 17, // estimate (preset knl): ~17-cycle L2 hit
        bytesPerCycle: 64, // datasheet (preset knl): 64 B per cycle L2 read bandwidth per tile
      },
    },
    core: {
      copyBytesPerCycle: 8, // estimate (preset knl): the 2-wide core sustains ~8 B per cycle of memcpy from L2
      reduceBytesPerCycle: 8, // estimate (preset knl): issue-bound like the copy
      missConcurrency: 12, // estimate (preset knl): 12 L1D misses in flight (Intel Xeon Phi processor optimization notes)
      streamConcurrency: 16, // estimate (preset knl): the tile L2 prefetcher keeps about 16 lines per core in flight
      kernelStores: 'full-line', // datasheet: copy_user is `rep movs` on 64-bit family-6 Intel (REP_GOOD), fast strings skip the RFO (Intel SDM Vol. 3A 8.2.4)
    },
    memory: {
      channels: 6, // datasheet: six DDR4 channels
      megaTransfers: 2400, // datasheet (preset knl): DDR4-2400
      streamShare: 0.78, // STREAM (preset knl): ~90 GB/s triad from DDR4 on KNL, of 115.2 GB/s peak
      latencyNs: 130, // estimate (preset knl): ~130 ns idle DDR latency on KNL
    },
    hbm: {
      bandwidth: 450, // STREAM: ~450 GB/s triad from MCDRAM in flat mode (Intel, "KNL Performance", 2016)
      latencyNs: 130, // estimate: ~150 ns idle MCDRAM latency from a core in flat mode (same source), less the mesh hop of the link below
    },
    memorySideCache: {
      bandwidth: 330, // STREAM (preset knl): ~330 GB/s triad in cache mode (Intel KNL STREAM article)
      latencyNs: 165, // estimate (preset knl): ~155 ns idle MCDRAM latency plus the tag check of cache mode
    },
    link: {
      kind: 'point-to-point', // a single socket: the link is the mesh path from the cores to a memory-only MCDRAM node
      bandwidth: 450, // estimate: the mesh is not a limit here: the chip's whole MCDRAM bandwidth, so a node's own MCDRAM share always binds first
      latencyNs: 20, // estimate: the rest of MCDRAM's ~150 ns after its controller's 130 ns, a mesh traversal
    },
  },
  {
    id: 'k8',
    name: 'AMD K8 (Opteron family 0Fh)',
    match: { vendor: 'AuthenticAMD', family: 15, names: [/Opteron.*\b[128]2[0-2]\d\b/] },
    clockGHz: 2.6, // preset opteron-nuioa: Opteron 8218 at 2.6 GHz
    caches: {
      1: {
        latencyCycles: 3, // datasheet (preset opteron-nuioa): 3-cycle L1 load-to-use
        bytesPerCycle: 16, // estimate (preset opteron-nuioa): two 8 B loads per cycle
      },
      2: {
        latencyCycles: 12, // datasheet (preset opteron-nuioa): 12-cycle K8 L2 hit
        bytesPerCycle: 16, // estimate (preset opteron-nuioa): 16 B per cycle L2-to-L1 path
      },
    },
    core: {
      copyBytesPerCycle: 8, // estimate (preset opteron-nuioa): half of K8's 16 B/cycle stores (2 x 8 B)
      reduceBytesPerCycle: 8, // estimate (preset opteron-nuioa): half of K8's two 8 B loads per cycle
      missConcurrency: 8, // estimate (preset opteron-nuioa): 8 L1D miss address buffers (AMD family 0Fh optimization guide)
      kernelStores: 'rfo', // estimate (preset opteron-nuioa): no AMD document says its string stores skip the read for ownership
    },
    memory: {
      channels: 2, // datasheet: two DDR2 channels per socket-F Opteron
      megaTransfers: 667, // datasheet (preset opteron-nuioa): DDR2-667
      streamShare: 0.6, // estimate (preset opteron-nuioa): K8 STREAM sustains ~60% of peak
      latencyNs: 65, // estimate (preset opteron-nuioa): ~65 ns local latency of the K8 integrated controller
    },
    link: {
      kind: 'point-to-point',
      bandwidth: 4.0, // datasheet (preset opteron-nuioa): HyperTransport at 2 GT/s x 16 bits per direction
      latencyNs: 40, // estimate (preset opteron-nuioa): one HT hop on K8 systems
    },
  },
  {
    id: 'k10-barcelona',
    name: 'AMD K10 Barcelona (Opteron 1300/2300/8300, 65 nm)',
    match: { vendor: 'AuthenticAMD', family: 16, models: [2], names: [/Opteron.*\b[128]3[45]\d\b/] },
    clockGHz: 1.9, // preset barcelona: Opteron 8347 HE at 1.9 GHz
    caches: {
      1: {
        latencyCycles: 3, // datasheet (preset barcelona): 3-cycle L1 load-to-use
        bytesPerCycle: 32, // estimate (preset barcelona): two 16 B loads per cycle
      },
      2: {
        latencyCycles: 12, // datasheet (preset barcelona): 12-cycle K10 L2 hit
        bytesPerCycle: 16, // estimate (preset barcelona): 16 B per cycle L2-to-L1 path
      },
      3: {
        latencyCycles: 50, // estimate (preset barcelona): ~50-cycle K10 L3 hit
        bytesPerCycle: 26.9, // estimate (preset barcelona): two 16 B paths per northbridge cycle at 1.6 GHz under a 1.9 GHz core
        victim: true, // datasheet: K10 L3 is a non-inclusive victim cache filled by L2 evictions (AMD family 10h BKDG)
      },
    },
    core: {
      copyBytesPerCycle: 8, // estimate (preset barcelona): half of K10's 16 B/cycle stores
      reduceBytesPerCycle: 16, // estimate (preset barcelona): half of K10's two 16 B loads per cycle
      missConcurrency: 8, // estimate (preset barcelona): 8 L1D miss address buffers (AMD family 10h optimization guide)
      kernelStores: 'rfo', // estimate (preset barcelona): no AMD document says its string stores skip the read for ownership
    },
    memory: {
      channels: 2, // datasheet: two DDR2 channels per socket
      megaTransfers: 667, // datasheet (preset barcelona): DDR2-667
      streamShare: 0.6, // estimate (preset barcelona): early K10 STREAM sustains ~60% of peak
      latencyNs: 85, // estimate (preset barcelona): local DRAM latency of K10 without HT Assist, slower 1.6 GHz northbridge
    },
    link: {
      kind: 'point-to-point',
      bandwidth: 4.0, // datasheet (preset barcelona): HT1 at 2 GT/s x 16 bits per direction; Barcelona did not enable HT3
      latencyNs: 45, // estimate (preset barcelona): one HT hop at HT1 speed
    },
  },
  {
    id: 'k10-istanbul',
    name: 'AMD K10 Istanbul (Opteron 2400/8400)',
    match: { vendor: 'AuthenticAMD', family: 16, models: [8], names: [/Opteron.*\b[28]4[1-3]\d\b/] },
    clockGHz: 2.8, // preset ig: Opteron 8439 SE at 2.8 GHz
    caches: {
      1: {
        latencyCycles: 3, // datasheet (preset ig): 3-cycle L1 load-to-use on K10
        bytesPerCycle: 32, // estimate (preset ig): two 16 B loads per cycle
      },
      2: {
        latencyCycles: 12, // datasheet (preset ig): 12-cycle K10 L2 hit
        bytesPerCycle: 16, // estimate (preset ig): 16 B per cycle L2-to-L1 path
      },
      3: {
        latencyCycles: 50, // estimate (preset ig): ~50-cycle K10 L3 hit
        bytesPerCycle: 25.1, // estimate (preset ig): two 16 B paths per northbridge cycle at 2.2 GHz under a 2.8 GHz core
        victim: true, // datasheet: K10 L3 is a non-inclusive victim cache filled by L2 evictions (AMD family 10h BKDG)
      },
    },
    core: {
      copyBytesPerCycle: 8, // estimate (preset ig): half of K10's 16 B/cycle stores
      reduceBytesPerCycle: 16, // estimate (preset ig): half of K10's two 16 B loads per cycle
      missConcurrency: 8, // estimate (preset ig): 8 L1D miss address buffers (AMD family 10h optimization guide)
      kernelStores: 'rfo', // estimate (preset ig): no AMD document says its string stores skip the read for ownership
    },
    memory: {
      channels: 2, // datasheet: two DDR2 channels per socket
      megaTransfers: 800, // datasheet (preset ig): DDR2-800
      streamShare: 0.65, // estimate (preset ig): K10 STREAM sustains ~65% of peak
      latencyNs: 80, // estimate (preset ig): ~80 ns local latency of K10 with HT Assist
    },
    link: {
      kind: 'point-to-point',
      bandwidth: 9.6, // datasheet (preset ig): HT3 at 4.8 GT/s x 16 bits per direction
      latencyNs: 40, // estimate (preset ig): one HT hop adds ~40 ns over local DRAM on K10 systems
    },
  },
  {
    id: 'zen4-genoa',
    name: 'AMD Zen 4 Genoa (EPYC 9004)',
    // Family 19h models 10h and 11h only: AMD's PPR for Family 19h Model 11h, Revision B1 (55901)
    // is the EPYC 9004 (Genoa and Genoa-X, CPUID 00A10F11h), model 10h its earlier revisions. The
    // rest of 10h-1Fh is not Genoa: model 18h is Threadripper 7000 "Storm Peak" (sTR5, four or
    // eight DDR5 channels, not twelve), and Bergamo and Siena (Zen 4c) are models A0h-AFh.
    match: {
      vendor: 'AuthenticAMD',
      family: 25,
      models: [0x10, 0x11],
      names: [/EPYC 9[0-6]\d4[A-Z]?\b/],
    },
    clockGHz: 2.4, // preset epyc-genoa: EPYC 9654 base clock 2.4 GHz
    caches: {
      1: {
        latencyCycles: 5, // datasheet (preset epyc-genoa): 5-cycle load-to-use for vector loads on Zen 4
        bytesPerCycle: 96, // estimate (preset epyc-genoa): two 32 B loads + one 32 B store per cycle
      },
      2: {
        latencyCycles: 14, // datasheet (preset epyc-genoa): 14-cycle L2 hit
        bytesPerCycle: 32, // estimate (preset epyc-genoa): 32 B per cycle L2-to-L1
      },
      3: {
        latencyCycles: 50, // estimate (preset epyc-genoa): ~50-cycle L3 hit
        bytesPerCycle: 32, // estimate (preset epyc-genoa): 32 B per cycle from L3 for each core of the CCD
        perSharer: true,
        victim: true, // datasheet: the Zen 4 L3 is a victim cache of the L2s of its CCD (AMD family 19h optimization guide)
      },
    },
    core: {
      copyBytesPerCycle: 16, // estimate (preset epyc-genoa): half the 32 B/cycle store port
      reduceBytesPerCycle: 32, // estimate (preset epyc-genoa): half of two 32 B loads per cycle
      missConcurrency: 24, // estimate (preset epyc-genoa): Zen 4 L1D keeps 24 misses in flight (AMD family 19h optimization guide)
      streamConcurrency: 64, // estimate (preset epyc-genoa): the L2 prefetcher and miss queue keep far more lines in flight than the L1D
      kernelStores: 'rfo', // estimate (preset epyc-genoa): no AMD document says its string stores skip the read for ownership
    },
    memory: {
      channels: 12, // datasheet: twelve DDR5 channels per socket
      megaTransfers: 4800, // datasheet (preset epyc-genoa): DDR5-4800
      streamShare: 0.78, // estimate (preset epyc-genoa): STREAM on Genoa sustains ~75-80% of the 460.8 GB/s peak
      latencyNs: 115, // estimate (preset epyc-genoa): ~115 ns local latency in NPS1
    },
    link: {
      kind: 'point-to-point',
      bandwidth: 256, // datasheet (preset epyc-genoa): four xGMI3 x16 links, 64 GB/s per direction each
      latencyNs: 85, // estimate (preset epyc-genoa): remote socket memory ~200 ns vs ~115 ns local
    },
  },
  {
    id: 'power8',
    name: 'IBM POWER8',
    match: { names: [/POWER8/] },
    clockGHz: 3.4, // preset power8: 3.4 GHz
    caches: {
      1: {
        latencyCycles: 3, // datasheet (preset power8): 3-cycle L1 load-to-use
        bytesPerCycle: 48, // estimate (preset power8): two 16 B loads + one 16 B store per cycle
      },
      2: {
        latencyCycles: 13, // estimate (preset power8): ~13-cycle L2 hit
        bytesPerCycle: 64, // datasheet (preset power8): 64 B per cycle L2-to-L1
      },
      3: {
        latencyCycles: 27, // estimate (preset power8): ~27-cycle local L3 region hit
        bytesPerCycle: 32, // estimate (preset power8): 32 B per cycle from the local L3 region
      },
    },
    core: {
      copyBytesPerCycle: 16, // estimate (preset power8): half of two 16 B stores per cycle
      reduceBytesPerCycle: 16, // estimate (preset power8): half of two 16 B VSX loads per cycle
      missConcurrency: 8, // estimate (preset power8): L1D load-miss queue of 8 outstanding lines (IBM POWER8 user manual)
      streamConcurrency: 32, // estimate (preset power8): prefetch up to 16 streams deep into L2/L3, about four times the load-miss queue
      lineBytes: 128, // datasheet (preset power8): POWER8 cache lines are 128 bytes
    },
    memory: {
      channels: 4, // estimate (preset power8): four Centaur buffer chips per socket, each on one DMI link
      megaTransfers: 9600, // datasheet: a Centaur DMI link runs at 9.6 GT/s
      bytesPerTransfer: 3, // datasheet (preset power8): 19.2 GB/s read + 9.6 GB/s write per Centaur link, 2 + 1 bytes per transfer
      streamShare: 0.78, // STREAM (preset power8): 90 GB/s triad per socket with 4 Centaurs (AnandTech), of 115.2 GB/s
      latencyNs: 90, // estimate (preset power8): Centaur-buffered DDR idle latency of ~90 ns
    },
    link: {
      kind: 'point-to-point',
      bandwidth: 38.4, // estimate (preset power8): SMP X-bus between the two sockets of a 2-socket node
      latencyNs: 60, // estimate (preset power8): one SMP hop with coherence
    },
  },
];
