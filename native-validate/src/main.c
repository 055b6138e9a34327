/* intranode-native: runs one benchmark natively on this host and prints its results as JSON.
 *
 *   intranode-native BENCH [--ranks N] [--cores 0,1,...] [--sizes 1024,65536,...]
 *                    [--iterations K] [--warmup W] [--cache on|off] [--mech shm|cma-read|cma-write|cma]
 *                    [--frag BYTES] [--slots K] [--timeout SECONDS] [--llc BYTES]
 *                    [--order sequential|shuffled] [--root-waits polling|syscalls]
 *
 * BENCH: probe, memcpy, latency, lineping, claims, pingpong, pingping, onetoall, bcast, scatter, gather, alltoall,
 * allgather. Exit status: 0 success, 1 bad command line, 2 a rank failed (message on stderr),
 * 124 timeout, 128+N stopped by signal N. */
#include "native.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void usage(const char *msg) {
  fprintf(stderr, "intranode-native: %s\n", msg);
  exit(1);
}

static long number(const char *text, const char *what) {
  char *end;
  errno = 0;
  long v = strtol(text, &end, 10);
  if (errno || *end || v < 0) {
    fprintf(stderr, "intranode-native: %s: '%s' is not a non-negative integer\n", what, text);
    exit(1);
  }
  return v;
}

static int list(const char *text, long *out, int max, const char *what) {
  char *copy = strdup(text), *save = NULL;
  int n = 0;
  for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
    if (n == max) usage("too many values in a list");
    out[n++] = number(tok, what);
  }
  free(copy);
  return n;
}

/* Largest data or unified cache of cpu0, from sysfs; 0 when sysfs says nothing. */
static size_t detect_llc(void) {
  size_t best = 0;
  for (int i = 0; i < 8; i++) {
    char path[128], text[64];
    snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
    FILE *f = fopen(path, "r");
    if (!f) continue;
    if (fgets(text, sizeof text, f)) {
      char *end;
      size_t v = strtoul(text, &end, 10);
      if (*end == 'K') v <<= 10;
      else if (*end == 'M') v <<= 20;
      if (v > best) best = v;
    }
    fclose(f);
  }
  return best;
}

int main(int argc, char **argv) {
  static struct options o;
  if (argc < 2) usage("usage: intranode-native BENCH [options] (see the comment at the top of main.c)");
  o.launcher = getppid();
  o.bench = argv[1];
  o.ranks = 0;
  o.iterations = 20;
  o.warmup = 3;
  o.cache_off = 0;
  o.mech = "shm";
  o.frag = 64 * 1024; /* a slot holds one eager message, as a Nemesis cell (MPID_NEM_CELL_LEN) */
  o.slots = 8;        /* MPICH2's LMT copy buffer, NUM_BUFS (mpid_nem_lmt_shm.c) */
  o.timeout_s = 120;
  o.llc_bytes = detect_llc();
  o.llc_source = "sysfs";
  if (o.llc_bytes == 0) {
    /* sysfs lists no cache for cpu0 (some virtual machines): a size above most processors' last
     * level, so that a rotation over twice it leaves them cold; the probe says it was assumed. */
    o.llc_bytes = 32ul << 20;
    o.llc_source = "default";
  }
  /* Test hook, from the environment so that it reaches the backend under the driver too. */
  o.nodump = getenv("INTRANODE_NATIVE_TEST_NODUMP") != NULL;
  long values[MAX_RANKS > MAX_SIZES ? MAX_RANKS : MAX_SIZES];
  for (int i = 2; i < argc; i++) {
    const char *a = argv[i];
    if (i + 1 >= argc) usage("an option lacks its value");
    const char *v = argv[++i];
    if (!strcmp(a, "--ranks")) o.ranks = (int)number(v, a);
    else if (!strcmp(a, "--cores")) {
      o.ncores = list(v, values, MAX_RANKS, a);
      for (int k = 0; k < o.ncores; k++) o.cores[k] = (int)values[k];
    } else if (!strcmp(a, "--sizes")) {
      o.nsizes = list(v, values, MAX_SIZES, a);
      for (int k = 0; k < o.nsizes; k++) o.sizes[k] = (size_t)values[k];
    } else if (!strcmp(a, "--iterations")) o.iterations = (int)number(v, a);
    else if (!strcmp(a, "--warmup")) o.warmup = (int)number(v, a);
    else if (!strcmp(a, "--cache")) {
      if (strcmp(v, "on") && strcmp(v, "off")) usage("--cache takes on or off");
      o.cache_off = !strcmp(v, "off");
    } else if (!strcmp(a, "--order")) {
      if (strcmp(v, "sequential") && strcmp(v, "shuffled")) usage("--order takes sequential or shuffled");
      o.shuffled = !strcmp(v, "shuffled");
    } else if (!strcmp(a, "--root-waits")) {
      if (strcmp(v, "polling") && strcmp(v, "syscalls")) usage("--root-waits takes polling or syscalls");
      o.root_waits = !strcmp(v, "syscalls") ? ROOT_IN_SYSCALLS : ROOT_POLLS;
    } else if (!strcmp(a, "--mech")) o.mech = v;
    else if (!strcmp(a, "--frag")) o.frag = (size_t)number(v, a);
    else if (!strcmp(a, "--slots")) o.slots = (int)number(v, a);
    else if (!strcmp(a, "--timeout")) o.timeout_s = (int)number(v, a);
    else if (!strcmp(a, "--llc")) {
      o.llc_bytes = (size_t)number(v, a);
      o.llc_source = "given";
      if (o.llc_bytes == 0) usage("--llc: the cache-off rotation needs a cache size above 0");
    }
    else if (!strcmp(a, "--hold-ms")) o.hold_ms = number(v, a);
    else if (!strcmp(a, "--test-corrupt")) o.corrupt = (int)number(v, a);
    else {
      fprintf(stderr, "intranode-native: unknown option %s\n", a);
      return 1;
    }
  }
  if (o.ranks == 0) o.ranks = o.ncores ? o.ncores : 2;
  if (o.ranks > MAX_RANKS) usage("too many ranks");
  long online = sysconf(_SC_NPROCESSORS_ONLN);
  if (o.ncores == 0) {
    if (o.ranks > online) {
      fprintf(stderr, "intranode-native: %d ranks on %ld cores would oversubscribe them; refused\n", o.ranks, online);
      return 1;
    }
    for (int k = 0; k < o.ranks; k++) o.cores[k] = k;
  } else if (o.ncores < o.ranks) {
    usage("--cores lists fewer cores than --ranks");
  }
  for (int k = 0; k < o.ranks; k++)
    for (int j = 0; j < k; j++)
      if (o.cores[j] == o.cores[k]) usage("a core appears twice in --cores: ranks would share it (oversubscription)");
  if (o.iterations < 1) usage("--iterations must be at least 1");
  if (o.frag == 0 || o.slots < 1) usage("--frag and --slots must be positive");
  if (o.nsizes == 0 && strcmp(o.bench, "probe")) usage("--sizes is required");

  int (*body)(struct team *, FILE *) = NULL;
  if (!strcmp(o.bench, "probe")) body = bench_probe;
  else if (!strcmp(o.bench, "memcpy")) body = bench_memcpy;
  else if (!strcmp(o.bench, "latency")) body = bench_latency;
  else if (!strcmp(o.bench, "lineping")) body = bench_lineping;
  else if (!strcmp(o.bench, "claims")) body = bench_claims;
  else if (!strcmp(o.bench, "pingpong")) body = bench_pingpong;
  else if (!strcmp(o.bench, "pingping")) body = bench_pingping;
  else if (!strcmp(o.bench, "onetoall")) body = bench_onetoall;
  else if (!strcmp(o.bench, "bcast") || !strcmp(o.bench, "scatter") || !strcmp(o.bench, "gather") ||
           !strcmp(o.bench, "alltoall") || !strcmp(o.bench, "allgather"))
    body = bench_collective;
  else {
    fprintf(stderr, "intranode-native: unknown benchmark %s\n", o.bench);
    return 1;
  }
  if (o.root_waits && (strcmp(o.bench, "onetoall") || (strcmp(o.mech, "cma-read") && strcmp(o.mech, "cma"))))
    usage("--root-waits is for onetoall over CMA reads only (--mech cma-read): the root waits for its readers");
  if (!strcmp(o.bench, "probe") && o.ranks < 2) usage("probe needs 2 ranks");
  if (!strcmp(o.bench, "lineping") && o.ranks != 2) usage("lineping needs 2 ranks");
  if (!strcmp(o.bench, "claims")) {
    if (o.ranks != 2) usage("claims needs 2 ranks");
    if (o.cache_off) usage("claims runs warm only: it stores into the same ring every iteration (--cache on)");
    for (int k = 0; k < o.nsizes; k++)
      if (o.sizes[k] > o.frag * (size_t)o.slots) usage("claims: a size exceeds the ring (--frag times --slots)");
  }
  return team_run(&o, body, stdout);
}
