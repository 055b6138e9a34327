/* Point-to-point benchmarks between ranks 0 and 1 (others idle), and one-to-all from rank 0.
 * Mechanisms: `shm`, the double copy through the pair's fragment ring; `cma-read`, the sender posts
 * its buffer's address and the receiver process_vm_readv's it, then acknowledges; `cma-write`, the
 * receiver posts its buffer's address and the sender process_vm_writev's into it, then says done.
 * Every transfer carries its own rendezvous, as an MPI library's would. */
#include "native.h"

#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

enum mech { SHM, CMA_READ, CMA_WRITE };

static enum mech mech_of(struct team *t) {
  if (strcmp(t->opt->mech, "shm") == 0) return SHM;
  if (strcmp(t->opt->mech, "cma-read") == 0 || strcmp(t->opt->mech, "cma") == 0) return CMA_READ;
  if (strcmp(t->opt->mech, "cma-write") == 0) return CMA_WRITE;
  fail(t, "unknown mechanism %s (shm, cma-read, cma-write)", t->opt->mech);
}

struct p2p_ctx {
  struct arena arena; /* send buffer at 0, receive buffer at `bytes` rounded to a page */
  size_t bytes, recv_off;
  enum mech mech;
};

static char *send_of(struct p2p_ctx *c, int rot) { return arena_at(&c->arena, rot); }
static char *recv_of(struct p2p_ctx *c, int rot) { return arena_at(&c->arena, rot) + c->recv_off; }

/* Blocking send and receive of one message over the chosen mechanism. */
static void p2p_send(struct team *t, struct p2p_ctx *c, int peer, const char *buf) {
  uint64_t w[3];
  switch (c->mech) {
  case SHM:
    shm_send(t, peer, buf, c->bytes);
    break;
  case CMA_READ:
    mail_post(t, peer, (uint64_t)(uintptr_t)buf, c->bytes, 0);
    mail_wait(t, peer, w); /* the receiver's "done": the buffer may be reused */
    break;
  case CMA_WRITE:
    mail_wait(t, peer, w); /* the receiver's buffer address */
    cma_write(t, peer, w[0], buf, c->bytes);
    mail_post(t, peer, 0, 0, 0);
    break;
  }
}

static void p2p_recv(struct team *t, struct p2p_ctx *c, int peer, char *buf) {
  uint64_t w[3];
  switch (c->mech) {
  case SHM:
    shm_recv(t, peer, buf, c->bytes);
    break;
  case CMA_READ:
    mail_wait(t, peer, w);
    cma_read(t, peer, w[0], buf, c->bytes);
    mail_post(t, peer, 0, 0, 0);
    break;
  case CMA_WRITE:
    mail_post(t, peer, (uint64_t)(uintptr_t)buf, c->bytes, 0);
    mail_wait(t, peer, w);
    break;
  }
}

static void pingpong_run(struct team *t, void *p, int rot) {
  struct p2p_ctx *c = p;
  if (t->rank == 0) {
    p2p_send(t, c, 1, send_of(c, rot));
    p2p_recv(t, c, 1, recv_of(c, rot));
  } else if (t->rank == 1) {
    p2p_recv(t, c, 0, recv_of(c, rot));
    p2p_send(t, c, 0, send_of(c, rot));
  }
}

/* Ping-ping: both send and receive at once. */
static void pingping_run(struct team *t, void *p, int rot) {
  struct p2p_ctx *c = p;
  if (t->rank > 1) return;
  int peer = 1 - t->rank;
  uint64_t w[3];
  switch (c->mech) {
  case SHM: {
    struct xfer x[2];
    xfer_init(&x[0], peer, send_of(c, rot), c->bytes, 1);
    xfer_init(&x[1], peer, recv_of(c, rot), c->bytes, 0);
    xfer_all(t, x, 2);
    break;
  }
  case CMA_READ:
  case CMA_WRITE: {
    /* Each side posts the buffer the other's call needs (its send buffer to be read, or its
     * receive buffer to be written), copies, then both say done. */
    int reading = c->mech == CMA_READ;
    mail_post(t, peer, (uint64_t)(uintptr_t)(reading ? send_of(c, rot) : recv_of(c, rot)), c->bytes, 0);
    mail_wait(t, peer, w);
    if (reading) cma_read(t, peer, w[0], recv_of(c, rot), c->bytes);
    else cma_write(t, peer, w[0], send_of(c, rot), c->bytes);
    mail_post(t, peer, 0, 0, 0);
    mail_wait(t, peer, w);
    break;
  }
  }
}

static void p2p_check(struct team *t, void *p, int rot) {
  struct p2p_ctx *c = p;
  if (t->rank > 1) return;
  expect_block(t, recv_of(c, rot), c->bytes, 1 - t->rank, 0, rot % c->arena.count, "point-to-point");
  memset(recv_of(c, rot), 0, c->bytes);
}

static int p2p_bench(struct team *t, FILE *out, void (*run)(struct team *, void *, int),
                     void (*check)(struct team *, void *, int), double divisor) {
  if (t->size < 2) fail(t, "%s needs at least 2 ranks", t->opt->bench);
  json_header(t, out);
  for (int i = 0; i < t->opt->nsizes; i++) {
    struct p2p_ctx c;
    c.bytes = t->opt->sizes[i];
    c.mech = mech_of(t);
    c.recv_off = (c.bytes + 4095) / 4096 * 4096;
    arena_make(t, &c.arena, c.recv_off + c.bytes);
    for (int r = 0; r < c.arena.count; r++) fill_block(send_of(&c, r), c.bytes, t->rank, 0, r);
    struct case_ops ops = {run, check, &c, divisor};
    measure(t, out, c.bytes, &ops, i == 0);
    arena_free(&c.arena);
  }
  json_footer(t, out);
  return 0;
}

int bench_pingpong(struct team *t, FILE *out) { return p2p_bench(t, out, pingpong_run, p2p_check, 2.0); }
int bench_pingping(struct team *t, FILE *out) { return p2p_bench(t, out, pingping_run, p2p_check, 1.0); }

/* One-to-all: every other rank reads rank 0's buffer at once. Over CMA all readers pin the root's
 * pages under its address-space lock (the contention case); over shm the root sends to all. */
static void onetoall_run(struct team *t, void *p, int rot) {
  struct p2p_ctx *c = p;
  uint64_t w[3];
  char *buf = send_of(c, rot);
  if (c->mech == SHM) {
    if (t->rank != 0) {
      shm_recv(t, 0, recv_of(c, rot), c->bytes);
      return;
    }
    struct xfer x[MAX_RANKS];
    for (int r = 1; r < t->size; r++) xfer_init(&x[r - 1], r, buf, c->bytes, 1);
    xfer_all(t, x, t->size - 1);
    return;
  }
  if (t->rank == 0) {
    for (int r = 1; r < t->size; r++) mail_post(t, r, (uint64_t)(uintptr_t)buf, c->bytes, 0);
    /* --root-waits: the iteration ends with the readers' ends, not when the root has seen their
     * notices, so that how often the root looks at its mailbox is not timed; with syscalls, the
     * readers' target spends its wait in the kernel (getpid, which reads only the caller's own
     * task), as a rank in a system call of its own would. */
    if (t->opt->root_waits) t->end_at = now_ns();
    if (t->opt->root_waits == ROOT_IN_SYSCALLS) {
      unsigned spins = 0;
      for (int r = 1; r < t->size; r++)
        while (!mail_ready(t, r)) {
          syscall(SYS_getpid);
          relax(&spins);
        }
    }
    for (int r = 1; r < t->size; r++) mail_wait(t, r, w);
  } else {
    mail_wait(t, 0, w);
    cma_read(t, 0, w[0], recv_of(c, rot), c->bytes);
    mail_post(t, 0, 0, 0, 0);
  }
}

static void onetoall_check(struct team *t, void *p, int rot) {
  struct p2p_ctx *c = p;
  if (t->rank == 0) return;
  expect_block(t, recv_of(c, rot), c->bytes, 0, 0, rot % c->arena.count, "one-to-all");
  memset(recv_of(c, rot), 0, c->bytes);
}

int bench_onetoall(struct team *t, FILE *out) {
  if (mech_of(t) == CMA_WRITE) fail(t, "onetoall reads: use cma-read or shm");
  return p2p_bench(t, out, onetoall_run, onetoall_check, 1.0);
}
