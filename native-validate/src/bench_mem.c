/* Memory benchmarks: memcpy bandwidth by working set (each of the team's ranks copies at once, so
 * one rank shows one core and all ranks show the shared caches and memory under load), load
 * latency by pointer chasing, the transfer of cache lines between two cores (one flag's trip, and
 * stores into lines the other core holds), and the probe of what this host allows (CMA, cache
 * size). */
#include "native.h"

#include <errno.h>
#include <string.h>
#include <sys/mman.h>

/* memcpy: `bytes` from one buffer to another, both of the rank's own, repeated warm. The working
 * set is twice `bytes`. Repeating inside the timed call keeps the clock's cost out of small sizes. */
struct copy_ctx {
  char *src, *dst;
  size_t bytes;
  long reps;
};

static void copy_run(struct team *t, void *p, int rot) {
  (void)t;
  (void)rot;
  struct copy_ctx *c = p;
  for (long i = 0; i < c->reps; i++) {
    memcpy(c->dst, c->src, c->bytes);
    __asm__ __volatile__("" ::: "memory"); /* every copy happens */
  }
}

static void copy_check(struct team *t, void *p, int rot) {
  (void)rot;
  struct copy_ctx *c = p;
  expect_block(t, c->dst, c->bytes, t->rank, 0, 0, "memcpy");
}

int bench_memcpy(struct team *t, FILE *out) {
  json_header(t, out);
  for (int i = 0; i < t->opt->nsizes; i++) {
    size_t bytes = t->opt->sizes[i];
    struct copy_ctx c = {alloc_local(bytes), alloc_local(bytes), bytes, 0};
    fill_block(c.src, bytes, t->rank, 0, 0);
    c.reps = (long)((64ul << 20) / (bytes ? bytes : 1));
    if (c.reps < 1) c.reps = 1;
    if (c.reps > 100000) c.reps = 100000;
    struct case_ops ops = {copy_run, copy_check, &c, (double)c.reps};
    measure(t, out, bytes, &ops, i == 0);
  }
  json_footer(t, out);
  return 0;
}

/* Pointer chase over a working set: one dependent load per cache line, in a random cyclic order
 * (a fixed-seed generator, so runs chase the same cycle) that defeats the prefetchers. */
struct chase_ctx {
  void **start;
  long steps;
  void *sink;
};

static void chase_run(struct team *t, void *p, int rot) {
  (void)t;
  (void)rot;
  struct chase_ctx *c = p;
  void **q = c->start;
  for (long i = 0; i < c->steps; i++) q = (void **)*q;
  c->sink = q;
  __asm__ __volatile__("" ::"r"(q) : "memory");
}

int bench_latency(struct team *t, FILE *out) {
  json_header(t, out);
  const size_t line = 64;
  for (int i = 0; i < t->opt->nsizes; i++) {
    size_t bytes = t->opt->sizes[i] < 2 * line ? 2 * line : t->opt->sizes[i];
    size_t n = bytes / line;
    /* Huge pages where the kernel gives them: the chase then measures the caches and memory, not
     * page walks (a 4 KiB-page TLB covers a few MiB at most). */
    char *mem = mmap(NULL, n * line, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mem == MAP_FAILED) fail(t, "mmap %zu bytes: %s", n * line, strerror(errno));
    madvise(mem, n * line, MADV_HUGEPAGE);
    memset(mem, 0, n * line);
    size_t *order = alloc_local(n * sizeof *order);
    for (size_t k = 0; k < n; k++) order[k] = k;
    uint64_t x = 88172645463325252ull; /* xorshift64 */
    for (size_t k = n - 1; k > 0; k--) {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      size_t j = (size_t)(x % (k + 1));
      size_t tmp = order[k];
      order[k] = order[j];
      order[j] = tmp;
    }
    for (size_t k = 0; k < n; k++) *(void **)(mem + order[k] * line) = mem + order[(k + 1) % n] * line;
    struct chase_ctx c = {(void **)(mem + order[0] * line), 2000000, NULL};
    struct case_ops ops = {chase_run, NULL, &c, (double)c.steps};
    measure(t, out, bytes, &ops, i == 0);
    arena_free(&(struct arena){mem, n * line, 1, NULL});
    arena_free(&(struct arena){(char *)order, n * sizeof *order, 1, NULL});
  }
  json_footer(t, out);
  return 0;
}

/* Probe: can rank 1 read rank 0's memory with CMA? Prints the errno name when not. */
int bench_probe(struct team *t, FILE *out) {
  char *buf = alloc_local(4096);
  fill_block(buf, 4096, t->rank, 0, 0);
  mail_post(t, (t->rank + 1) % t->size, (uint64_t)(uintptr_t)buf, 0, 0);
  uint64_t w[3];
  mail_wait(t, (t->rank + t->size - 1) % t->size, w);
  int err = cma_probe(t->hdr->pids[(t->rank + t->size - 1) % t->size], (void *)(uintptr_t)w[0], 64);
  if (t->rank == 1) t->hdr->cma_errno = err;
  team_barrier(t);
  if (t->rank == 0) {
    int e = t->hdr->cma_errno;
    const char *name = e == 0 ? "ok" : e == EPERM ? "EPERM" : e == ENOSYS ? "ENOSYS" : e == EFAULT ? "EFAULT" : "error";
    fprintf(out, "{\"bench\": \"probe\", \"ranks\": %d, \"cma\": \"%s\", \"cmaError\": \"%s\", \"llcBytes\": %zu, \"llcSource\": \"%s\"}\n",
            t->size, name, e ? strerror(e) : "", t->opt->llc_bytes, t->opt->llc_source);
  }
  team_barrier(t);
  return 0;
}

/* Core-to-core line transfer: ranks 0 and 1 pass one cache line back and forth, each waiting for
 * the other's value before writing its own, LINE_PINGS round trips per iteration. Each one-way trip
 * moves the line, just written, from one core's cache to the other's: the time a flag set by one
 * rank takes to be seen by its poller. Reported per one-way trip (the sizes are not used). */
#define LINE_PINGS 1000

struct lineping_ctx {
  uint64_t next; /* the value this rank waits for next */
};

static void lineping_run(struct team *t, void *p, int rot) {
  (void)rot;
  struct lineping_ctx *c = p;
  line_pings(t, &t->hdr->line_ping, &c->next, LINE_PINGS);
}

int bench_lineping(struct team *t, FILE *out) {
  json_header(t, out);
  struct lineping_ctx c = {0};
  struct case_ops ops = {lineping_run, NULL, &c, 2.0 * LINE_PINGS};
  for (int i = 0; i < t->opt->nsizes; i++) measure(t, out, 64, &ops, i == 0);
  json_footer(t, out);
  return 0;
}

/* Ownership claims: rank 0 copies `bytes` from a warm buffer of its own into the double copy's ring
 * towards rank 1, which has just read that part of the ring, as a receiver copying a fragment out
 * does. Each line rank 0 stores is held by rank 1's cache, so rank 0 must first claim it (have the
 * other copy invalidated). Only rank 0 works in the timed call; between iterations rank 1 reads the
 * ring and checks it, and rank 0 writes the next iteration's pattern into its buffer. Unlike a
 * ping-pong, nothing overlaps the claims, so their cost shows alone. */
struct claims_ctx {
  char *src; /* rank 0's */
  char *ring;
  char *dst; /* rank 1's */
  size_t bytes;
};

static void claims_run(struct team *t, void *p, int rot) {
  (void)rot;
  struct claims_ctx *c = p;
  if (t->rank != 0) return;
  memcpy(c->ring, c->src, c->bytes);
  __asm__ __volatile__("" ::: "memory");
}

static void claims_check(struct team *t, void *p, int rot) {
  struct claims_ctx *c = p;
  if (t->rank == 1) {
    memcpy(c->dst, c->ring, c->bytes);
    expect_block(t, c->dst, c->bytes, 0, 0, rot, "claims");
  } else if (t->rank == 0) {
    fill_block(c->src, c->bytes, 0, 0, rot + 1);
  }
}

int bench_claims(struct team *t, FILE *out) {
  json_header(t, out);
  /* The ring from rank 0 to rank 1 (main.c checks that every size fits in it). */
  char *ring = t->rings + (size_t)(0 * t->size + 1) * (size_t)t->opt->slots * t->opt->frag;
  for (int i = 0; i < t->opt->nsizes; i++) {
    size_t bytes = t->opt->sizes[i];
    struct claims_ctx c = {NULL, ring, NULL, bytes};
    if (t->rank == 0) {
      c.src = alloc_local(bytes);
      fill_block(c.src, bytes, 0, 0, 0);
    } else {
      c.dst = alloc_local(bytes);
    }
    struct case_ops ops = {claims_run, claims_check, &c, 1.0};
    measure(t, out, bytes, &ops, i == 0);
    arena_free(&(struct arena){t->rank == 0 ? c.src : c.dst, bytes, 1, NULL});
  }
  json_footer(t, out);
  return 0;
}
