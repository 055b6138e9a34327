// Constants of NIC DMA that no machine file gives, each with its source. A NIC's own numbers (wire
// bandwidth, latency, DMA size) are in its machine file or in hardware/nic-models.ts.

export const nicCosts = {
  /**
   * Bytes each PCIe transaction layer packet adds to its payload on the link: start framing (1),
   * sequence number (2), a 4-DW header of a 64-bit address (16), LCRC (4), end framing (1).
   * Source: PCI Express Base Specification 1.1, sections 2.2 and 3.5 and 4.2.
   */
  tlpOverheadBytes: 24,
  /**
   * Payload of one DMA packet when the NIC names none: 128 B, the Max_Payload_Size every PCIe
   * device supports and the default setting (PCI Express Base Specification 1.1, 7.8.4).
   */
  defaultDmaBytes: 128,
  /**
   * Buffers a link's receiver holds for DMA packets of one kind (read responses, posted writes):
   * links are flow-controlled hop by hop with credits, one per buffer (HyperTransport I/O Link
   * Specification, flow control; QPI likewise), so one link direction carries at most
   * buffers x packet bytes per credit round trip of DMA. Source: AMD Family 10h Revision Guide
   * 41322, erratum 386, the coherent-link setting of 3 response-data and 3 posted-request buffers;
   * estimate: the K8 and other links of the presets have as many.
   */
  linkDmaBuffers: 3,
  /** Largest data payload of one link packet: 64 B (HyperTransport I/O Link Specification). */
  linkPacketBytes: 64,
} as const;
