// Parameters every algorithm accepts: they configure the transports underneath rather than the
// algorithm (mechanisms.ts reads them), so any algorithm can be run over any of them. Their
// defaults are the transports' own (p2p.ts, shm/costs.ts, kernel-costs.ts), shown by
// `intranode algorithms`; a run that leaves one out gets the transport's default.
import type { ParamInfo } from '../node/params.ts';
import type { SingleCopyMechanism } from '../node/single-copy-descriptor.ts';
import { DEFAULT_REGCACHE_CAPACITY } from './kernel-costs.ts';
import { LMT_BUFFERS, nemesisCosts, singleCopyRendezvous, smBtlCosts, vaderFastBoxBytes } from './shm/costs.ts';
import { SHM_PROTOCOLS, SINGLE_COPY } from './shm/packet.ts';
import { RAIL_POLICIES } from './net/rails.ts';

/** The smallest sm BTL fragment: ob1's fragment header and one byte of data (the loader checks it
 *  here, and p2p.ts again for options given through the API). */
export const SM_FRAGMENT_MIN_BYTES = smBtlCosts.fragHeaderBytes + 1;

export const transportParams: readonly ParamInfo[] = [
  {
    name: 'shm',
    kind: 'choice',
    default: 'nemesis',
    choices: [...SHM_PROTOCOLS],
    description: 'shared-memory double-copy protocol of point-to-point messages (MPICH2 Nemesis or Open MPI sm BTL)',
  },
  {
    name: 'single',
    kind: 'choice',
    default: 'none',
    choices: [...SINGLE_COPY],
    description: 'single-copy mechanism point-to-point uses for large messages',
  },
  {
    name: 'singleThreshold',
    kind: 'bytes',
    default: singleCopyRendezvous,
    keywords: [singleCopyRendezvous],
    min: 0,
    description:
      "messages of at least this size use the single-copy mechanism; 'rendezvous': every message above the double copy's eager limit, as the libraries do",
  },
  {
    name: 'eagerLimit',
    kind: 'bytes',
    default: nemesisCosts.eagerLimitBytes,
    min: 0,
    description:
      "Nemesis: largest message sent eagerly through cells, as MPICH's MPIR_CVAR_NEMESIS_SHM_EAGER_MAX_SZ (not with shm: sm)",
  },
  {
    name: 'lmt',
    kind: 'boolean',
    default: nemesisCosts.lmt,
    description:
      "Nemesis: larger messages through the shared-memory LMT pipeline (true) or ch3's rendezvous through cells (false; not with a single-copy mechanism)",
  },
  {
    name: 'lmtChunk',
    kind: 'bytes',
    default: nemesisCosts.lmtChunkBytes,
    min: 1,
    description:
      'Nemesis: slot of the LMT copy buffer, what one pipeline step copies (16 KiB for messages up to 128 KiB) (MPICH2 MPID_NEM_COPY_BUF_LEN)',
  },
  {
    name: 'lmtSlots',
    kind: 'integer',
    default: nemesisCosts.lmtSlots,
    min: 1,
    // The ring's slots are simulated one by one: a count beyond this is refused as the typo it is.
    max: 65536,
    description: 'Nemesis: slots of the LMT copy buffer, how far the sender may run ahead (MPICH2 NUM_BUFS)',
  },
  {
    name: 'lmtBuffer',
    kind: 'choice',
    default: nemesisCosts.lmtBuffer,
    choices: [...LMT_BUFFERS],
    description:
      "Nemesis: one LMT copy buffer per pair of processes, one transfer at a time either way ('pair', MPICH2's), or one per direction ('direction', the native backend's double copy)",
  },
  {
    name: 'nemesisSideNs',
    kind: 'number',
    default: nemesisCosts.sendSideNs,
    min: 0,
    description:
      "Nemesis: the library's work on each side of a packet, in ns (building and posting it; matching and completing it); 0 for a program with no MPI library around its cells, as the native backend's double copy",
  },
  {
    name: 'smFragment',
    kind: 'bytes',
    default: smBtlCosts.maxFragmentBytes,
    min: SM_FRAGMENT_MIN_BYTES,
    description: "sm BTL: fragment of the rendezvous pipeline, as Open MPI's btl_sm_max_send_size (only with shm: sm)",
  },
  {
    name: 'smPipelineDepth',
    kind: 'integer',
    default: smBtlCosts.sendPipelineDepth,
    min: 1,
    description:
      "sm BTL: fragments of a copy-in/out rendezvous in flight, as Open MPI's pml_ob1_send_pipeline_depth (only with shm: sm)",
  },
  {
    name: 'smFastBox',
    kind: 'bytes',
    default: smBtlCosts.fastBoxBytes,
    min: 0,
    // At most the whole ring (p2p.ts checks it too, for callers that bypass the scenario loader).
    max: smBtlCosts.fastBoxRingBytes,
    description: `sm BTL: largest eager message, ob1's ${smBtlCosts.matchHeaderBytes}-byte match header included, sent through a per-peer fast box once ${smBtlCosts.fastBoxThreshold} fragments have gone to that peer; 0 for none (Open MPI 1.x's sm BTL), ${vaderFastBoxBytes}B for Open MPI 1.8-4.1's vader BTL (only with shm: sm)`,
  },
  {
    name: 'regcache',
    kind: 'boolean',
    default: true,
    description: 'XPMEM registration cache on or off (only where XPMEM is called: by the algorithm, or single: xpmem)',
  },
  {
    name: 'regcacheCapacity',
    kind: 'integer',
    default: DEFAULT_REGCACHE_CAPACITY,
    min: 1,
    description: 'XPMEM registration cache entries, all peers together, before FIFO eviction (where regcache is taken)',
  },
  {
    name: 'rails',
    kind: 'choice',
    default: 'throughput',
    choices: [...RAIL_POLICIES],
    description:
      "how a message between hosts is split across the NICs: even, by NIC bandwidth, by the throughput each NIC offers from the process's NUMA node, only on the NICs of its own NUMA node (evenly when none is), or railShare on the first",
  },
  {
    name: 'railShare',
    kind: 'number',
    default: 0.5,
    min: 0,
    max: 1,
    description: 'with rails: share, the share of each message between hosts sent on the first NIC',
  },
];

/** Transport parameters that configure one kernel mechanism, which only that mechanism reads. */
export const MECHANISM_PARAMS: Readonly<Record<string, SingleCopyMechanism>> = {
  regcache: 'xpmem',
  regcacheCapacity: 'xpmem',
};

/** Transport parameters that configure point-to-point messages inside a host (the double copy and
 *  the single copy it may take). `rails` and `railShare` configure them between hosts, where an
 *  algorithm that sends none cannot run at all (scenarios/hosts.ts says so). */
export const POINT_TO_POINT_PARAMS: readonly string[] = transportParams
  .map((p) => p.name)
  .filter((name) => !(name in MECHANISM_PARAMS) && name !== 'rails' && name !== 'railShare');

/** A program's own parameters followed by the transport parameters it does not redeclare. */
export function withTransportParams(own: readonly ParamInfo[]): ParamInfo[] {
  return [...own, ...transportParams.filter((t) => !own.some((p) => p.name === t.name))];
}
