// Calibration table of the two shared-memory double-copy transports: buffer geometry taken from the
// implementations' sources and defaults, and the library's software work per packet. Cache-line
// transfers and copy times are not here: the node model derives them from the machine.
import { softwareCosts } from '../../node/software-costs.ts';

/** Whose Nemesis's LMT copy buffer is (nemesisCosts.lmtBuffer). */
export type LmtBuffer = 'pair' | 'direction';
export const LMT_BUFFERS: readonly LmtBuffer[] = ['pair', 'direction'];

export const nemesisCosts = {
  /**
   * Bytes of one queue cell. Source: MPICH2 mpid_nem_datatypes.h, `MPID_NEM_CELL_LEN (64*1024)`.
   */
  cellBytes: 64 * 1024,
  /**
   * Payload one cell (or the fastbox) carries: the cell less its `next` pointer (8 bytes on LP64)
   * and the nemesis packet header (source, dest, datalen: int; seqno, type: unsigned short = 16 B).
   * Source: MPICH2 mpid_nem_datatypes.h, `MPID_NEM_MPICH2_DATA_LEN = MPID_NEM_CELL_PAYLOAD_LEN -
   * MPID_NEM_MPICH2_HEAD_LEN`, `MPID_NEM_CELL_PAYLOAD_LEN = MPID_NEM_CELL_LEN - sizeof(void *)`.
   */
  cellDataBytes: 64 * 1024 - 8 - 16,
  /**
   * Payload of the per-pair fastbox: one whole cell behind a flag line.
   * Source: MPICH2 mpid_nem_datatypes.h, `MPID_nem_fbox_mpich2_t { flag; MPID_nem_cell_t cell; }`
   * and `#define MPID_NEM_FBOX_DATALEN MPID_NEM_MPICH2_DATA_LEN`.
   */
  fastboxDataBytes: 64 * 1024 - 8 - 16,
  /** Cells each process owns in its free queue. Source: MPICH2 mpid_nem_datatypes.h, `MPID_NEM_NUM_CELLS 64`. */
  cellsPerProcess: 64,
  /**
   * Largest message sent eagerly, its ch3 eager header and the data in one cell; larger ones use the
   * large-message transfer (LMT). Source: MPICH2 1.3.1 mpid_nem_init.c, `vc->eager_max_msg_sz =
   * MPID_NEM_MPICH2_DATA_LEN - sizeof(MPIDI_CH3_Pkt_t)`, and mpid_send.c / mpid_isend.c, eager when
   * `data_sz + sizeof(MPIDI_CH3_Pkt_eager_send_t) <= vc->eager_max_msg_sz` (the same rule in
   * MPICH 3 and 4 while MPIR_CVAR_NEMESIS_SHM_EAGER_MAX_SZ keeps its default, -1): just under
   * 64 KiB, so a message of 64 KiB already takes the LMT (Goglin & Moreaud, JPDC 2013, §4.4, round it
   * to "up to 64 KiB"). The two header sizes are estimates from mpidpkt.h's structs on LP64 without
   * sequence numbers: the eager header 32 bytes (type, match, sender_req_id, data_sz, padded), the
   * packet union 40 (its largest members, the RMA packets and Nemesis's LMT RTS). The transport
   * parameter `eagerLimit` sets the limit per run.
   */
  eagerLimitBytes: 64 * 1024 - 8 - 16 - 40 - 32,
  /**
   * Whether messages above the eager limit take the shared-memory LMT (copy-buffer pipeline). Off,
   * they take ch3's generic rendezvous instead: RTS, CTS, then the body as packets through the
   * receive queue's cells (MPICH2 ch3u_rndv.c, the path a channel without an LMT uses; seed 003,
   * slide 14: "No LMT / LMT Only / LMT + KNEM"). The transport parameter `lmt` sets it per run.
   */
  lmt: true as boolean,
  /**
   * Slot of the per-pair LMT copy buffer, and the pipeline's chunk for messages above
   * `lmtPipelineThresholdBytes`. Source: MPICH2 1.1-1.4 (and every later ch3) mpid_nem_lmt_shm.c,
   * `#define MPID_NEM_COPY_BUF_LEN (32 * 1024)`, `volatile char buf[NUM_BUFS][MPID_NEM_COPY_BUF_LEN]`
   * and `copy_limit = MPID_NEM_COPY_BUF_LEN` in lmt_shm_send_progress. (Goglin & Moreaud, JPDC 2013,
   * §4.4, describe "a pipeline of 64 KiB chunks"; the code of the releases they used says 32 KiB.)
   */
  lmtChunkBytes: 32 * 1024,
  /**
   * Slots of the per-pair LMT copy buffer, filled in turn: the sender runs up to this many chunks
   * ahead of the receiver. Source: MPICH2 1.1-1.4 mpid_nem_lmt_shm.c, `#define NUM_BUFS 8` and
   * `buf_num = (buf_num+1) % NUM_BUFS` in lmt_shm_send_progress and lmt_shm_recv_progress.
   */
  lmtSlots: 8,
  /**
   * Chunk of the LMT pipeline for messages of at most `lmtPipelineThresholdBytes`. Source: MPICH2
   * 1.1-1.4 mpid_nem_lmt_shm.c, `#define PIPELINE_MAX_SIZE (16 * 1024)`: "if the data size is less
   * than PIPELINE_THRESHOLD, then copy no more than PIPELINE_MAX_SIZE at a time".
   */
  lmtSmallChunkBytes: 16 * 1024,
  /** Source: MPICH2 1.1-1.4 mpid_nem_lmt_shm.c, `#define PIPELINE_THRESHOLD (128 * 1024)`. */
  lmtPipelineThresholdBytes: 128 * 1024,
  /**
   * Whose the LMT copy buffer is. 'pair': one per pair of processes, one transfer at a time in
   * either direction, freed by the receiver once drained. Source: MPICH2 1.1-1.4 (and every later
   * ch3) mpid_nem_lmt_shm.c, `vc_ch->lmt_copy_buf` per virtual connection, claimed in
   * get_next_req, freed at the end of lmt_shm_recv_progress. 'direction': one per ordered pair, a
   * transfer's sender filling it as soon as the previous transfer's chunks leave room, as the
   * native backend's double copy does (native-validate/src/channel.c).
   */
  lmtBuffer: 'pair' as LmtBuffer,
  /** Library work to build and post one packet (matching info, sequence number, request). Source:
   *  the shared per-side figure of software-costs.ts (Goglin & Moreaud, JPDC 2013, ~200 ns optimised
   *  intra-node latency on Westmere, half of it line transfers). */
  sendSideNs: softwareCosts.controlSideNs,
  /** Library work to match and complete one received packet. Source: as `sendSideNs`. */
  recvSideNs: softwareCosts.controlSideNs,
} as const;

export const smBtlCosts = {
  /**
   * Size of a small ("eager") fragment, the BTL's eager limit. Source: Open MPI btl_sm_component.c,
   * `mca_btl_sm.super.btl_eager_limit = 4*1024`.
   */
  eagerFragmentBytes: 4 * 1024,
  /**
   * What ob1 keeps of a fragment for its own header: a message is eager when its data fits the BTL's
   * eager limit less this, and a rendezvous's first fragment carries that much data (Open MPI 1.5
   * pml_ob1_sendreq.h, `eager_limit = btl->btl_eager_limit - sizeof(mca_pml_ob1_hdr_t)`). The size
   * of the header union of pml_ob1_hdr.h on x86-64 without heterogeneous support, whose largest
   * member is the RGET header with one segment: 72 bytes (56 in Open MPI 4.1, whose RGET header
   * carries no segment).
   */
  headerBytes: 72,
  /**
   * ob1's header on each later fragment of a rendezvous: a fragment carries the BTL's maximum send
   * size less this (Open MPI 1.5 pml_ob1_sendreq.c, `btl_max_send_size -
   * sizeof(mca_pml_ob1_frag_hdr_t)`); mca_pml_ob1_frag_hdr_t is 32 bytes on x86-64.
   */
  fragHeaderBytes: 32,
  /**
   * Data the rendezvous header carries before the receiver acknowledges. Source: Open MPI
   * btl_sm_component.c, `btl_rndv_eager_limit = 4*1024`.
   */
  rndvEagerBytes: 4 * 1024,
  /** Size of a large ("max") fragment, the chunk of the rendezvous pipeline (the transport
   *  parameter `smFragment`, Open MPI's MCA parameter btl_sm_max_send_size). Source: Open MPI
   *  btl_sm_component.c, `btl_max_send_size = 32*1024`. */
  maxFragmentBytes: 32 * 1024,
  /**
   * Fragments of one rendezvous a sender may have in flight when the whole message goes by copy in
   * and out (no RDMA): ob1 packs the next one only when an earlier one's completion comes back.
   * Source: Open MPI pml_ob1_component.c, `send_pipeline_depth` default 3 (1.5 to 5.0), applied in
   * pml_ob1_sendreq.c `mca_pml_ob1_send_request_schedule_once` when the receiver's ACK carries
   * `MCA_PML_OB1_HDR_FLAGS_NORDMA` (pml_ob1_recvfrag.c).
   */
  sendPipelineDepth: 3,
  /** Fragments a free list starts with. Source: Open MPI btl_sm_component.c, `free_list_num` default 8. */
  freeListInitial: 8,
  /** Fragments a free list grows by when empty (no maximum by default: `free_list_max = -1`).
   *  Source: Open MPI btl_sm_component.c, `free_list_inc` default 64. */
  freeListIncrement: 64,
  /** Library work to pack the header and post a fragment that starts a message (eager, or a
   *  rendezvous's first). Source: as nemesisCosts.sendSideNs. */
  sendSideNs: softwareCosts.controlSideNs,
  /** Library work to match and complete a received fragment that starts a message. Source: as
   *  nemesisCosts.recvSideNs. */
  recvSideNs: softwareCosts.controlSideNs,
  /**
   * Library work on each side of a fragment of a message the receiver has already matched: ob1's
   * ACK and the later fragments of a rendezvous, which carry the request's address and skip the
   * matching, request creation and completion of a message's first fragment (Open MPI 1.5-4.1
   * pml_ob1_recvfrag.c, mca_pml_ob1_recv_frag_callback_ack and _frag). No published figure splits
   * the two, so the presets take the same one; `intranode validate --mpi` fits both on the host.
   */
  followSideNs: softwareCosts.controlSideNs,
  /**
   * Largest eager fragment, ob1's match header included, sent through the per-peer fast box
   * instead of a fragment and the FIFO (the transport parameter `smFastBox`); 0: no fast box, as in
   * Open MPI 1.x's sm BTL, which has none.
   */
  fastBoxBytes: 0,
  /**
   * Size of a per-peer fast box, a ring the sender writes and the receiver polls. Source: Open MPI
   * 1.8-4.1 btl_vader_component.c, `fbox_size = 4096`.
   */
  fastBoxRingBytes: 4096,
  /**
   * Fragments a sender posts to one peer through its FIFO before it sets up a fast box to it.
   * Source: Open MPI 1.8-4.1 btl_vader_component.c, `fbox_threshold = 16`, counted in
   * btl_vader_fbox.h `mca_btl_vader_try_fbox_setup` on every FIFO write to the peer.
   */
  fastBoxThreshold: 16,
  /**
   * Fast boxes a receiver gives out, one per sender: a sender that finds none left at its
   * threshold never gets one. Source: Open MPI 1.8-4.1 btl_vader_component.c, `fbox_max = 32`,
   * taken in btl_vader_fbox.h `mca_btl_vader_try_fbox_setup` from the receiver's `fbox_available`.
   */
  fastBoxesPerReceiver: 32,
  /**
   * Data ob1 sends inline at most, through the BTL's `sendi`, the only way into a fast box: a
   * larger eager message is packed into a fragment (vader sets MCA_BTL_FLAGS_SEND_INPLACE, so ob1's
   * start_btl takes start_prepare and btl_send). Source: Open MPI 1.8-4.1 pml_ob1_isend.c,
   * mca_pml_ob1_send_inline: `if ((size * count) > 256) return OMPI_ERR_NOT_AVAILABLE`.
   */
  ob1InlineDataBytes: 256,
  /**
   * ob1's header on an eager message sent inline (the match header): it counts toward the fast
   * box's limit. Source: Open MPI 4.1 pml_ob1_hdr.h, `OMPI_PML_OB1_MATCH_HDR_LEN 14` without
   * heterogeneous support, passed as `header_size` to `mca_btl_vader_fbox_sendi`.
   */
  matchHeaderBytes: 14,
} as const;

/**
 * The largest eager message, data and match header, that Open MPI's vader BTL (1.8 to 4.1) sends
 * through its fast box: ob1 sends inline only up to 256 bytes of data (`ob1InlineDataBytes`), and
 * vader takes into the box only what fills at most a quarter of it (btl_vader_fbox.h,
 * mca_btl_vader_fbox_sendi: `if (... size > (fbox_size >> 2)) return false`), here the looser.
 */
export const vaderFastBoxBytes = Math.min(
  smBtlCosts.fastBoxRingBytes / 4,
  smBtlCosts.ob1InlineDataBytes + smBtlCosts.matchHeaderBytes,
);

/**
 * Where point-to-point switches to the single-copy mechanism by default (`singleThreshold:
 * rendezvous`): at the double copy's rendezvous, every message above its eager limit. Open MPI's
 * ob1 takes its RDMA protocol for every message above the BTL's eager limit once the sm BTL offers
 * GET, which it does with KNEM (Open MPI 1.5 pml_ob1_sendreq.h, mca_pml_ob1_send_request_start_btl:
 * `mca_pml_ob1_rdma_btls` then `mca_pml_ob1_send_request_start_rdma`); MPICH2 runs KNEM as an LMT,
 * which every message past Nemesis's eager limit takes (mpid_nem_init.c, `vc->eager_max_msg_sz`).
 */
export const singleCopyRendezvous = 'rendezvous' as const;

/**
 * The sm BTL constants a machine may set under `kernel.params`, with their defaults: the library's
 * work per fragment side, for fragments that start a message and for those that follow one
 * (`intranode validate --mpi` fits both on the host's Open MPI; absent, the second is the first).
 */
export const smParamDefaults = { smSideNs: smBtlCosts.sendSideNs, smFollowSideNs: smBtlCosts.followSideNs } as const;
