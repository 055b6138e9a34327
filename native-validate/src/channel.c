/* The shared-memory double copy: per ordered pair of ranks, a ring of `slots` slots of `frag` bytes
 * in the shared segment. A message that fits one slot goes as one fragment, as Nemesis sends an
 * eager message through one 64 KiB cell; a larger one goes in the chunks of MPICH2's LMT pipeline
 * (mpid_nem_lmt_shm.c, lmt_shm_send_progress): 16 KiB (PIPELINE_MAX_SIZE) up to 128 KiB
 * (PIPELINE_THRESHOLD), 32 KiB (MPID_NEM_COPY_BUF_LEN) above, the ring holding eight (NUM_BUFS) by
 * default. The sender copies a fragment in when its slot is empty and marks it full; the receiver
 * copies it out and marks it empty, so copy-in and copy-out of consecutive fragments overlap.
 * Transfers advance one fragment at a time so a rank can progress several at once (ping-ping,
 * alltoall) without deadlock. */
#include "native.h"

#include <string.h>

static int finished(const struct xfer *x) { return x->done >= x->bytes && x->next > x->start; }

void xfer_init(struct xfer *x, int peer, char *buf, size_t bytes, int send) {
  x->peer = peer;
  x->buf = buf;
  x->bytes = bytes;
  x->done = 0;
  x->send = send;
  /* Every transfer starts at the ring's first slot, as MPICH2's get_next_req sets lmt_buf_num to 0
   * for the next LMT of a pair; transfers of one pair follow each other, the slots' flags keeping a
   * new message's fragments behind the old one's. */
  x->start = x->next = 0;
}

static inline size_t pair(const struct team *t, int src, int dst) { return (size_t)src * t->size + dst; }

/* The fragment a message of `bytes` moves at a time (see the top of this file); never more than a slot. */
static size_t chunk_of(const struct options *o, size_t bytes) {
  size_t chunk = bytes <= o->frag ? o->frag : bytes <= 128 * 1024 ? 16 * 1024 : 32 * 1024;
  return chunk < o->frag ? chunk : o->frag;
}

int xfer_step(struct team *t, struct xfer *x) {
  if (finished(x)) return 0;
  int src = x->send ? t->rank : x->peer, dst = x->send ? x->peer : t->rank;
  unsigned slots = (unsigned)t->opt->slots;
  unsigned k = x->next % slots;
  struct slot_flag *flag = &t->flags[pair(t, src, dst) * slots + k];
  char *slot = t->rings + (pair(t, src, dst) * slots + k) * t->opt->frag;
  if (x->send) {
    if (__atomic_load_n(&flag->full, __ATOMIC_ACQUIRE) != 0) return 0;
    size_t chunk = chunk_of(t->opt, x->bytes);
    size_t n = x->bytes - x->done < chunk ? x->bytes - x->done : chunk;
    memcpy(slot, x->buf + x->done, n);
    /* A zero-byte message still sends one (empty) fragment: its arrival is the message. */
    __atomic_store_n(&flag->full, (uint64_t)n | (1ull << 63), __ATOMIC_RELEASE);
    x->done += n;
  } else {
    uint64_t full = __atomic_load_n(&flag->full, __ATOMIC_ACQUIRE);
    if (full == 0) return 0;
    size_t n = (size_t)(full & ~(1ull << 63));
    if (x->done + n > x->bytes) fail(t, "message from rank %d longer than the %zu bytes expected", x->peer, x->bytes);
    memcpy(x->buf + x->done, slot, n);
    __atomic_store_n(&flag->full, 0, __ATOMIC_RELEASE);
    x->done += n;
  }
  x->next++;
  return 1;
}

void xfer_all(struct team *t, struct xfer *x, int n) {
  unsigned spins = 0;
  for (;;) {
    int pending = 0, moved = 0;
    for (int i = 0; i < n; i++) {
      if (finished(&x[i])) continue;
      moved |= xfer_step(t, &x[i]);
      if (!finished(&x[i])) pending = 1;
    }
    if (!pending) return;
    if (!moved) relax(&spins);
    else spins = 0;
  }
}

void shm_send(struct team *t, int dst, const char *buf, size_t bytes) {
  struct xfer x;
  xfer_init(&x, dst, (char *)buf, bytes, 1);
  xfer_all(t, &x, 1);
}

void shm_recv(struct team *t, int src, char *buf, size_t bytes) {
  struct xfer x;
  xfer_init(&x, src, buf, bytes, 0);
  xfer_all(t, &x, 1);
}
