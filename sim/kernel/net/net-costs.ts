// Constants of the MPI library's protocol between hosts, each with its source.

export const netCosts = {
  /**
   * Messages up to this size go eagerly: the sender's NIC writes them into a buffer the receiver
   * registered beforehand, and the receiver copies them out. Source: Open MPI 1.3-1.4, openib BTL,
   * `btl_openib_eager_limit` default 12 KiB (Open MPI FAQ, tuning large messages); estimate: the
   * same for Myri-10G, whose MX BTL the seed also ran.
   */
  eagerLimitBytes: 12 * 1024,
} as const;
