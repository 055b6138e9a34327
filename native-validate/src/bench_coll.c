/* Linear collectives from root 0, `bytes` per block, over two mechanisms:
 *  - cma: the single-copy designs of Ma et al. 2010 (seed 000, §IV) with CMA as the mechanism: the
 *    root's (or each rank's) buffer address goes out once and the other ranks read or write it
 *    with process_vm_readv/writev all at once, then report done;
 *  - shm: Open MPI basic's linear designs over the double copy (bcast: the root sends to each rank
 *    in turn; scatter likewise; gather: the root receives from each rank in turn; alltoall: every
 *    transfer posted at once; allgather: gather to rank 0, then its broadcast).
 * Every rank checks every block it received after each iteration. */
#include "native.h"

#include <string.h>

enum op { BCAST, SCATTER, GATHER, ALLTOALL, ALLGATHER };

struct coll_ctx {
  enum op op;
  int cma;
  size_t bytes;
  size_t send_bytes, recv_bytes, recv_off;
  struct arena arena;
};

static char *sendbuf(struct coll_ctx *c, int rot) { return arena_at(&c->arena, rot); }
static char *recvbuf(struct coll_ctx *c, int rot) { return arena_at(&c->arena, rot) + c->recv_off; }

static void wait_all_done(struct team *t) {
  uint64_t w[3];
  for (int r = 0; r < t->size; r++)
    if (r != t->rank) mail_wait(t, r, w);
}

static void post_all(struct team *t, const void *addr) {
  for (int r = 0; r < t->size; r++)
    if (r != t->rank) mail_post(t, r, (uint64_t)(uintptr_t)addr, 0, 0);
}

/* CMA: the root exposes `buf`, every other rank reads `bytes` at `offset(rank)` of it into `into`. */
static void cma_fan_out(struct team *t, const char *buf, char *into, size_t bytes, int per_rank_block) {
  uint64_t w[3];
  if (t->rank == 0) {
    post_all(t, buf);
    wait_all_done(t);
  } else {
    mail_wait(t, 0, w);
    cma_read(t, 0, w[0] + (per_rank_block ? (uint64_t)t->rank * bytes : 0), into, bytes);
    mail_post(t, 0, 0, 0, 0);
  }
}

/* CMA: the root copies its own block, then exposes `into`, and every other rank writes its block at
 * rank x bytes (the order of the model's gather:cma-linear, algorithms/collectives/cma/rooted.ts). */
static void cma_fan_in(struct team *t, const char *block, char *into, size_t bytes) {
  uint64_t w[3];
  if (t->rank == 0) {
    memcpy(into, block, bytes);
    post_all(t, into);
    wait_all_done(t);
  } else {
    mail_wait(t, 0, w);
    cma_write(t, 0, w[0] + (uint64_t)t->rank * bytes, block, bytes);
    mail_post(t, 0, 0, 0, 0);
  }
}

static void shm_gather(struct team *t, const char *block, char *into, size_t bytes) {
  if (t->rank == 0) {
    memcpy(into, block, bytes);
    for (int r = 1; r < t->size; r++) shm_recv(t, r, into + (size_t)r * bytes, bytes);
  } else {
    shm_send(t, 0, block, bytes);
  }
}

static void shm_bcast(struct team *t, char *buf, size_t bytes) {
  if (t->rank == 0)
    for (int r = 1; r < t->size; r++) shm_send(t, r, buf, bytes);
  else
    shm_recv(t, 0, buf, bytes);
}

static void coll_run(struct team *t, void *p, int rot) {
  struct coll_ctx *c = p;
  char *s = sendbuf(c, rot), *r = recvbuf(c, rot);
  size_t b = c->bytes;
  int me = t->rank, n = t->size;
  switch (c->op) {
  case BCAST: /* one buffer: the root's is `s`, the others receive into `r` */
    if (c->cma) cma_fan_out(t, s, r, b, 0);
    else shm_bcast(t, me == 0 ? s : r, b);
    break;
  case SCATTER:
    if (me == 0) memcpy(r, s, b);
    if (c->cma) cma_fan_out(t, s, r, b, 1);
    else if (me == 0)
      for (int k = 1; k < n; k++) shm_send(t, k, s + (size_t)k * b, b);
    else
      shm_recv(t, 0, r, b);
    break;
  case GATHER:
    if (c->cma) cma_fan_in(t, s, r, b);
    else shm_gather(t, s, r, b);
    break;
  case ALLTOALL:
    memcpy(r + (size_t)me * b, s + (size_t)me * b, b);
    if (c->cma) {
      uint64_t w[3];
      post_all(t, s);
      for (int k = 1; k < n; k++) {
        int peer = (me + k) % n;
        mail_wait(t, peer, w);
        cma_read(t, peer, w[0] + (uint64_t)me * b, r + (size_t)peer * b, b);
      }
      for (int k = 1; k < n; k++) mail_post(t, (me + k) % n, 0, 0, 0);
      wait_all_done(t);
    } else {
      struct xfer x[2 * MAX_RANKS];
      int m = 0;
      for (int k = 1; k < n; k++) {
        int peer = (me + k) % n;
        xfer_init(&x[m++], peer, r + (size_t)peer * b, b, 0);
        xfer_init(&x[m++], peer, s + (size_t)peer * b, b, 1);
      }
      xfer_all(t, x, m);
    }
    break;
  case ALLGATHER:
    if (c->cma) {
      cma_fan_in(t, s, r, b);
      cma_fan_out(t, r, r, b * (size_t)n, 0);
    } else {
      shm_gather(t, s, r, b);
      shm_bcast(t, r, b * (size_t)n);
    }
    break;
  }
}

static void coll_check(struct team *t, void *p, int rot) {
  struct coll_ctx *c = p;
  char *r = recvbuf(c, rot);
  size_t b = c->bytes;
  int me = t->rank, n = t->size, k = rot % c->arena.count;
  switch (c->op) {
  case BCAST:
    if (me != 0) expect_block(t, r, b, 0, 0, k, "bcast");
    break;
  case SCATTER:
    expect_block(t, r, b, 0, me, k, "scatter");
    break;
  case GATHER:
    if (me == 0)
      for (int j = 0; j < n; j++) expect_block(t, r + (size_t)j * b, b, j, 0, k, "gather");
    break;
  case ALLTOALL:
    for (int j = 0; j < n; j++) expect_block(t, r + (size_t)j * b, b, j, me, k, "alltoall");
    break;
  case ALLGATHER:
    for (int j = 0; j < n; j++) expect_block(t, r + (size_t)j * b, b, j, 0, k, "allgather");
    break;
  }
  memset(r, 0, c->recv_bytes);
}

int bench_collective(struct team *t, FILE *out) {
  struct coll_ctx c;
  const char *name = t->opt->bench;
  c.op = strcmp(name, "bcast") == 0     ? BCAST
         : strcmp(name, "scatter") == 0 ? SCATTER
         : strcmp(name, "gather") == 0  ? GATHER
         : strcmp(name, "alltoall") == 0 ? ALLTOALL
                                         : ALLGATHER;
  if (strcmp(t->opt->mech, "cma") == 0) c.cma = 1;
  else if (strcmp(t->opt->mech, "shm") == 0) c.cma = 0;
  else fail(t, "collectives run over cma or shm, not %s", t->opt->mech);
  size_t n = (size_t)t->size;
  json_header(t, out);
  for (int i = 0; i < t->opt->nsizes; i++) {
    size_t b = c.bytes = t->opt->sizes[i];
    switch (c.op) {
    case BCAST: c.send_bytes = b, c.recv_bytes = b; break;
    case SCATTER: c.send_bytes = n * b, c.recv_bytes = b; break;
    case GATHER: c.send_bytes = b, c.recv_bytes = n * b; break;
    case ALLTOALL: c.send_bytes = n * b, c.recv_bytes = n * b; break;
    case ALLGATHER: c.send_bytes = b, c.recv_bytes = n * b; break;
    }
    c.recv_off = (c.send_bytes + 4095) / 4096 * 4096;
    arena_make(t, &c.arena, c.recv_off + c.recv_bytes);
    for (int k = 0; k < c.arena.count; k++) {
      char *s = sendbuf(&c, k);
      if (c.op == SCATTER || c.op == ALLTOALL)
        for (size_t j = 0; j < n; j++) fill_block(s + j * b, b, t->rank, (int)j, k);
      else
        fill_block(s, b, t->rank, 0, k);
    }
    struct case_ops ops = {coll_run, coll_check, &c, 1.0};
    measure(t, out, b, &ops, i == 0);
    arena_free(&c.arena);
  }
  json_footer(t, out);
  return 0;
}
