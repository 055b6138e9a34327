/* The iteration loop: every rank starts its call at one instant (team_start), timestamps it, barrier;
 * the iteration's time is from the earliest start to the latest end (one clock: CLOCK_MONOTONIC is
 * system-wide), which is what the simulator reports for an iteration without arrival skew. Warm-up
 * iterations run first and are not recorded. With cache off, each iteration uses the next buffer of a rotation larger
 * than twice the last-level cache, as IMB's -off_cache does (or, with --order shuffled, a buffer of it
 * drawn in a fixed shuffled order). */
#include "native.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

void arena_make(struct team *t, struct arena *a, size_t bytes) {
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  a->stride = (bytes + page - 1) / page * page;
  if (a->stride == 0) a->stride = page;
  a->count = 1;
  if (t->opt->cache_off) a->count = (int)((2 * t->opt->llc_bytes + a->stride - 1) / a->stride) + 1;
  a->base = alloc_local(a->stride * (size_t)a->count);
  a->order = NULL;
  if (t->opt->cache_off && t->opt->shuffled && a->count > 1) {
    /* Fisher-Yates with a fixed xorshift generator: the same order in every rank and run. Taken one
     * after another, IMB-style, the buffers sit a constant stride apart, a pattern the hardware
     * prefetchers can follow from one iteration to the next. */
    a->order = malloc((size_t)a->count * sizeof *a->order);
    if (!a->order) fail(t, "malloc of the rotation order: %s", strerror(errno));
    uint32_t x = 2463534242u;
    for (int i = 0; i < a->count; i++) a->order[i] = i;
    for (int i = a->count - 1; i > 0; i--) {
      x ^= x << 13;
      x ^= x >> 17;
      x ^= x << 5;
      int j = (int)(x % (uint32_t)(i + 1));
      int tmp = a->order[i];
      a->order[i] = a->order[j];
      a->order[j] = tmp;
    }
  }
}

void arena_free(struct arena *a) {
  munmap(a->base, a->stride * (size_t)a->count);
  a->base = NULL;
  free(a->order);
  a->order = NULL;
}

void expect_block(struct team *t, const char *buf, size_t bytes, int src, int block, int rot, const char *what) {
  if (t->opt->corrupt && t->rank == 1 && bytes > 0) ((char *)buf)[bytes - 1] ^= 1;
  if (!check_block(buf, bytes, src, block, rot))
    fail(t, "%s: %zu bytes of block %d from rank %d (buffer %d) are not what rank %d sent", what, bytes, block, src,
         rot, src);
}

void line_pings(struct team *t, volatile uint64_t *line, uint64_t *next, int pings) {
  if (t->rank > 1) return;
  unsigned spins = 0;
  for (int k = 0; k < pings; k++) {
    if (t->rank == 0) {
      __atomic_store_n(line, *next + 1, __ATOMIC_RELEASE);
      while (__atomic_load_n(line, __ATOMIC_ACQUIRE) != *next + 2) relax(&spins);
    } else {
      while (__atomic_load_n(line, __ATOMIC_ACQUIRE) != *next + 1) relax(&spins);
      __atomic_store_n(line, *next + 2, __ATOMIC_RELEASE);
    }
    *next += 2;
  }
}

/* The one-way trip of a cache line between ranks 0 and 1 (ns, the median of TRIP_BLOCKS blocks of
 * TRIP_PINGS round trips), measured right before and right after a case: on a virtual machine the
 * host may move the virtual CPUs between physical cores mid-run, and a trip several times the usual
 * says the case ran with its two cores placed apart, or began or ended so. Every rank calls it;
 * only rank 0's answer is meaningful. */
#define TRIP_BLOCKS 5
#define TRIP_PINGS 200
static double line_trip(struct team *t) {
  double blocks[TRIP_BLOCKS];
  team_barrier(t);
  for (int b = 0; b < TRIP_BLOCKS; b++) {
    double t0 = now_ns();
    line_pings(t, &t->hdr->trip_ping, &t->trip_next, TRIP_PINGS);
    blocks[b] = (now_ns() - t0) / (2.0 * TRIP_PINGS);
  }
  team_barrier(t);
  return median(blocks, TRIP_BLOCKS);
}

struct buffers_taken buffers_taken;

void measure(struct team *t, FILE *out, size_t bytes, const struct case_ops *ops, int first) {
  int total = t->opt->warmup + t->opt->iterations;
  buffers_taken.count = 0;
  double *samples = calloc((size_t)t->opt->iterations, sizeof *samples);
  double before = t->size >= 2 ? line_trip(t) : 0;
  for (int it = 0; it < total; it++) {
    team_start(t);
    double t0 = now_ns();
    ops->run(t, ops->ctx, it);
    double t1 = t->end_at > 0 ? t->end_at : now_ns();
    t->end_at = 0;
    t->hdr->t_start[t->rank] = t0;
    t->hdr->t_end[t->rank] = t1;
    team_barrier(t);
    if (t->rank == 0 && it >= t->opt->warmup) {
      double lo = t->hdr->t_start[0], hi = t->hdr->t_end[0];
      for (int r = 1; r < t->size; r++) {
        if (t->hdr->t_start[r] < lo) lo = t->hdr->t_start[r];
        if (t->hdr->t_end[r] > hi) hi = t->hdr->t_end[r];
      }
      samples[it - t->opt->warmup] = (hi - lo) / ops->divisor;
    }
    if (ops->check) ops->check(t, ops->ctx, it);
    team_barrier(t); /* nobody reuses a buffer another rank is still checking */
  }
  double after = t->size >= 2 ? line_trip(t) : 0;
  if (t->rank == 0) {
    fprintf(out, "%s{\"bytes\": %zu, ", first ? "" : ",\n    ", bytes);
    print_stats(out, samples, t->opt->iterations);
    if (t->size >= 2) fprintf(out, ", \"tripBeforeNs\": %.1f, \"tripNs\": %.1f", before, after);
    fprintf(out, ", \"buffers\": [");
    for (int k = 0; k < buffers_taken.count; k++) fprintf(out, "%s%d", k ? ", " : "", buffers_taken.index[k]);
    fprintf(out, "]}");
  }
  free(samples);
}

void json_header(struct team *t, FILE *out) {
  if (t->rank != 0) return;
  const struct options *o = t->opt;
  fprintf(out, "{\"bench\": \"%s\", \"mech\": \"%s\", \"ranks\": %d, \"cores\": [", o->bench, o->mech, o->ranks);
  for (int i = 0; i < o->ranks; i++) fprintf(out, "%s%d", i ? ", " : "", o->cores[i]);
  fprintf(out,
          "], \"cache\": \"%s\", \"order\": \"%s\", \"rootWaits\": %s, \"iterations\": %d, \"warmup\": %d, "
          "\"fragBytes\": %zu, \"slots\": %d,\n  \"results\": [",
          o->cache_off ? "off" : "on", o->cache_off && o->shuffled ? "shuffled" : "sequential",
          o->root_waits == ROOT_IN_SYSCALLS ? "\"syscalls\"" : o->root_waits == ROOT_POLLS ? "\"polling\"" : "null",
          o->iterations, o->warmup, o->frag, o->slots);
}

void json_footer(struct team *t, FILE *out) {
  if (t->rank == 0) fprintf(out, "]}\n");
}
