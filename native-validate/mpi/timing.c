/* The project's own timing program for a real MPI library: collectives one after another, each by
 * size, root 0;
 * warm-up, then iterations each started by every rank at one instant (a barrier, then a start time
 * rank 0 sends a margin ahead, as the native backend's team_start); an iteration's time is from the
 * earliest rank's start to the latest rank's end (CLOCK_MONOTONIC is one clock for the node), as the
 * native backend and the simulator measure it. Buffers rotate over twice the last-level cache, as IMB's
 * -off_cache does. Prints JSON like the native backend's.
 *
 *   intranode-mpi-timing OPS SIZES ITERATIONS WARMUP LLC_BYTES
 *   OPS: comma-separated, each bcast, scatter, gather, alltoall or allgather; SIZES: comma-separated
 *   bytes per block. Results come operation by operation, each size in turn, each naming its
 *   operation. One launch measures them all: starting the job costs more than measuring one. */
#define _GNU_SOURCE
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* How far ahead rank 0 sets each iteration's start: well beyond what broadcasting it takes. */
#define START_MARGIN_NS 20000.0

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double quantile(const double *s, int n, double q) {
  double pos = q * (n - 1);
  int lo = (int)pos, hi = lo + 1 < n ? lo + 1 : lo;
  return s[lo] + (s[hi] - s[lo]) * (pos - lo);
}

static int known(const char *op) {
  static const char *const ops[] = {"bcast", "scatter", "gather", "alltoall", "allgather"};
  for (size_t i = 0; i < sizeof ops / sizeof *ops; i++)
    if (!strcmp(op, ops[i])) return 1;
  return 0;
}

/* One collective of b bytes per block on buffers s (send, or the broadcast's) and r (receive). */
static void collective(const char *op, char *s, char *r, size_t b) {
  if (!strcmp(op, "bcast")) MPI_Bcast(s, (int)b, MPI_BYTE, 0, MPI_COMM_WORLD);
  else if (!strcmp(op, "scatter")) MPI_Scatter(s, (int)b, MPI_BYTE, r, (int)b, MPI_BYTE, 0, MPI_COMM_WORLD);
  else if (!strcmp(op, "gather")) MPI_Gather(s, (int)b, MPI_BYTE, r, (int)b, MPI_BYTE, 0, MPI_COMM_WORLD);
  else if (!strcmp(op, "alltoall")) MPI_Alltoall(s, (int)b, MPI_BYTE, r, (int)b, MPI_BYTE, MPI_COMM_WORLD);
  else MPI_Allgather(s, (int)b, MPI_BYTE, r, (int)b, MPI_BYTE, MPI_COMM_WORLD);
}

/* Times `op` at b bytes per block and prints its result (rank 0); `first` says no result came before. */
static void measure(const char *op, size_t b, int iterations, int warmup, size_t llc, int me, int n, double *samples,
                    int first) {
  size_t sbytes = b, rbytes = b;
  if (!strcmp(op, "scatter")) sbytes = b * n;
  else if (!strcmp(op, "gather") || !strcmp(op, "allgather")) rbytes = b * n;
  else if (!strcmp(op, "alltoall")) sbytes = rbytes = b * n;
  size_t soff = (sbytes + 4095) / 4096 * 4096;
  size_t stride = soff + (rbytes + 4095) / 4096 * 4096;
  if (stride == 0) stride = 4096;
  /* As the native backend's rotation (src/measure.c, arena_make): more than twice the cache, plus one. */
  size_t count = (2 * llc + stride - 1) / stride + 1;
  /* On a page, as the native backend's arenas (mmap): a buffer spans the pages its size needs. */
  char *arena = NULL;
  if (posix_memalign((void **)&arena, 4096, stride * count) != 0) MPI_Abort(MPI_COMM_WORLD, 2);
  memset(arena, me + 1, stride * count);
  for (int it = 0; it < warmup + iterations; it++) {
    char *s = arena + (size_t)(it % (int)count) * stride, *r = s + soff;
    /* A barrier's release reaches the ranks at different times, and the earliest-start-to-latest-end
     * interval would count that skew, which the simulator's iteration does not have: every rank
     * waits for a start time rank 0 sets further ahead than its broadcast takes. */
    MPI_Barrier(MPI_COMM_WORLD);
    double start_at = me == 0 ? now_ns() + START_MARGIN_NS : 0;
    MPI_Bcast(&start_at, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    while (now_ns() < start_at)
      ;
    double t[2];
    t[0] = now_ns();
    collective(op, s, r, b);
    t[1] = -now_ns();
    double lohi[2];
    MPI_Reduce(t, lohi, 2, MPI_DOUBLE, MPI_MIN, 0, MPI_COMM_WORLD);
    if (me == 0 && it >= warmup) samples[it - warmup] = -lohi[1] - lohi[0];
  }
  free(arena);
  if (me == 0) {
    qsort(samples, (size_t)iterations, sizeof *samples, by_value);
    double sum = 0;
    for (int i = 0; i < iterations; i++) sum += samples[i];
    printf("%s{\"op\": \"%s\", \"bytes\": %zu, \"medianNs\": %.1f, \"meanNs\": %.1f, \"minNs\": %.1f, \"maxNs\": %.1f, "
           "\"q1Ns\": %.1f, \"q3Ns\": %.1f, \"samples\": %d}",
           first ? "" : ",\n    ", op, b, quantile(samples, iterations, 0.5), sum / iterations, samples[0],
           samples[iterations - 1], quantile(samples, iterations, 0.25), quantile(samples, iterations, 0.75), iterations);
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int me, n;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  if (argc != 6) {
    if (me == 0) fprintf(stderr, "usage: intranode-mpi-timing OPS SIZES ITERATIONS WARMUP LLC_BYTES\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  int iterations = atoi(argv[3]), warmup = atoi(argv[4]);
  size_t llc = strtoull(argv[5], NULL, 10);
  if (iterations < 1) MPI_Abort(MPI_COMM_WORLD, 1);
  char *ops = strdup(argv[1]), *opsave = NULL;
  /* Every operation is checked before any runs: a typo fails at once, not after the others' time. */
  char *check = strdup(argv[1]), *checksave = NULL;
  for (char *op = strtok_r(check, ",", &checksave); op; op = strtok_r(NULL, ",", &checksave))
    if (!known(op)) {
      if (me == 0) fprintf(stderr, "intranode-mpi-timing: unknown operation '%s'\n", op);
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
  free(check);
  double *samples = calloc((size_t)iterations, sizeof *samples);
  if (me == 0) printf("{\"ops\": \"%s\", \"ranks\": %d, \"iterations\": %d, \"warmup\": %d,\n  \"results\": [", argv[1], n, iterations, warmup);
  int first = 1;
  for (char *op = strtok_r(ops, ",", &opsave); op; op = strtok_r(NULL, ",", &opsave)) {
    char *sizes = strdup(argv[2]), *save = NULL;
    for (char *tok = strtok_r(sizes, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
      measure(op, strtoull(tok, NULL, 10), iterations, warmup, llc, me, n, samples, first);
      first = 0;
    }
    free(sizes);
  }
  if (me == 0) printf("]}\n");
  free(ops);
  free(samples);
  MPI_Finalize();
  return 0;
}
