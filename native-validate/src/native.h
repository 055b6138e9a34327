/* The native backend's shared declarations: the team of pinned rank processes, the shared segment
 * they synchronise through, the double-copy channels, CMA, and the benchmarks. */
#ifndef INTRANODE_NATIVE_H
#define INTRANODE_NATIVE_H

#define _GNU_SOURCE
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#define MAX_RANKS 256
#define MAX_SIZES 64
#define MAX_ROTATE 64

/* Options of one run, parsed from the command line (main.c). */
/* How onetoall's root waits for its CMA readers when --root-waits is given (options.root_waits). */
#define ROOT_POLLS 1
#define ROOT_IN_SYSCALLS 2

struct options {
  const char *bench;
  int ranks;
  int cores[MAX_RANKS];
  int ncores;
  size_t sizes[MAX_SIZES];
  int nsizes;
  int iterations;
  int warmup;
  int cache_off;
  int shuffled;     /* cache off: visit the rotation buffers in a shuffled order, not one after another */
  int root_waits;   /* onetoall over CMA, --root-waits: 0 not given, ROOT_POLLS, ROOT_IN_SYSCALLS */
  const char *mech; /* shm, cma-read, cma-write */
  size_t frag;      /* double-copy fragment (bytes) */
  int slots;        /* fragments in flight per ordered pair */
  int timeout_s;
  size_t llc_bytes; /* last-level cache, for the cache-off rotation */
  const char *llc_source; /* where llc_bytes came from: "sysfs", "default" or "given" (--llc) */
  long hold_ms;     /* test hook: every rank sleeps this long after setup (cleanup tests) */
  int corrupt;      /* test hook: rank 1 spoils one received byte before checking (data-check tests) */
  int nodump;       /* test hook: ranks make themselves non-dumpable, so CMA needs CAP_SYS_PTRACE */
  pid_t launcher;   /* the process that started this one: its death stops the run (team.c) */
};

/* Per ordered pair (src -> dst): a ring of `slots` fragments of `frag` bytes. */
struct slot_flag {
  volatile uint64_t full; /* bytes in the slot, 0 when empty */
  char pad[56];
};

/* Control mailbox from one rank to another: a sequence number and one payload word (an address,
 * a length), each on its own cache line. */
struct mailbox {
  volatile uint64_t seq;
  volatile uint64_t word[3];
  char pad[32];
};

struct shared_header {
  volatile uint64_t barrier_count;
  char pad0[56];
  volatile uint64_t barrier_sense;
  char pad1[56];
  volatile int32_t failed; /* a rank hit an error: everybody stops */
  volatile int32_t cma_errno;
  char pad2[56];
  volatile uint64_t line_ping; /* the line bench_lineping passes between ranks 0 and 1, alone on it */
  char pad3[56];
  volatile uint64_t trip_ping; /* the line measure() passes between ranks 0 and 1 before and after each case */
  char pad4[56];
  volatile double start_at; /* when every rank starts the next timed call (team_start) */
  char pad5[56];
  pid_t pids[MAX_RANKS];
  double t_start[MAX_RANKS];
  double t_end[MAX_RANKS];
};

/* One rank's view of the team. */
struct team {
  int rank;
  int size;
  const struct options *opt;
  struct shared_header *hdr;
  struct mailbox *mail;       /* [dst * size + src] */
  struct slot_flag *flags;    /* [(src * size + dst) * slots + k] */
  char *rings;                /* [(src * size + dst) * slots * frag] */
  uint64_t local_sense;
  uint64_t mail_seen[MAX_RANKS]; /* per source: last sequence consumed */
  uint64_t mail_sent[MAX_RANKS]; /* per destination: last sequence posted */
  double end_at;                 /* set by a case's run: this rank's end of the iteration, not its return */
  uint64_t trip_next;            /* the value of trip_ping this rank waits for next */
};

/* team.c */
int team_run(const struct options *opt, int (*body)(struct team *, FILE *out), FILE *out);
void team_barrier(struct team *t);
void team_start(struct team *t);
double now_ns(void);
void fail(struct team *t, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));
void *alloc_local(size_t bytes); /* first-touched by the caller */
void mail_post(struct team *t, int dst, uint64_t a, uint64_t b, uint64_t c);
void mail_wait(struct team *t, int src, uint64_t out[3]);
/* Whether the mailbox from `src` holds a message mail_wait would take now. */
int mail_ready(struct team *t, int src);
void relax(unsigned *spins);

/* channel.c: the shared-memory double copy, pipelined in fragments */
struct xfer {
  int peer;
  char *buf;
  size_t bytes;
  size_t done;   /* bytes copied in (send) or out (recv) */
  unsigned start; /* ring position when the transfer began */
  unsigned next;  /* next ring position */
  int send;
};
void xfer_init(struct xfer *x, int peer, char *buf, size_t bytes, int send);
int xfer_step(struct team *t, struct xfer *x); /* 1 when it moved a fragment */
void xfer_all(struct team *t, struct xfer *x, int n);
void shm_send(struct team *t, int dst, const char *buf, size_t bytes);
void shm_recv(struct team *t, int src, char *buf, size_t bytes);

/* cma.c */
int cma_probe(pid_t peer, void *remote, size_t bytes); /* 0 or errno */
void cma_read(struct team *t, int peer, uint64_t remote, char *local, size_t bytes);
void cma_write(struct team *t, int peer, uint64_t remote, const char *local, size_t bytes);

/* data.c: patterns that tell who wrote which block of which buffer */
void fill_block(char *buf, size_t bytes, int src, int block, int rot);
int check_block(const char *buf, size_t bytes, int src, int block, int rot);

/* stats.c */
void print_stats(FILE *out, double *samples, int n);
double median(double *samples, int n); /* sorts samples */

/* measure.c: the iteration loop every benchmark shares */
struct arena {
  char *base;
  size_t stride; /* bytes of one rotation buffer, a whole number of pages */
  int count;     /* rotation buffers: 1 with warm caches; enough to exceed twice the LLC otherwise */
  int *order;    /* with --order shuffled, the buffer each rotation uses; NULL: one after another */
};
void arena_make(struct team *t, struct arena *a, size_t bytes);
void arena_free(struct arena *a);
/* The rotation buffers a case's first iterations took, in the order taken (measure.c prints them
 * as each result's "buffers"): what shows that --order shuffled reorders them, not only the option
 * echoed back. */
#define BUFFERS_SHOWN 8
struct buffers_taken {
  int index[BUFFERS_SHOWN];
  int count;
};
extern struct buffers_taken buffers_taken;
static inline char *arena_at(const struct arena *a, int rot) {
  int i = rot % a->count;
  int b = a->order ? a->order[i] : i;
  /* An iteration asks for its buffer several times (send, receive, check): each new one is noted. */
  struct buffers_taken *k = &buffers_taken;
  if (k->count < BUFFERS_SHOWN && (k->count == 0 || k->index[k->count - 1] != b)) k->index[k->count++] = b;
  return a->base + (size_t)b * a->stride;
}
struct case_ops {
  void (*run)(struct team *t, void *ctx, int rot);   /* the timed operation */
  void (*check)(struct team *t, void *ctx, int rot); /* verify what arrived, then scribble it */
  void *ctx;
  double divisor; /* 2 for half a round trip */
};
void measure(struct team *t, FILE *out, size_t bytes, const struct case_ops *ops, int first);
/* Ranks 0 and 1 pass `line` back and forth `pings` round trips, each waiting for the other's value
 * (`*next` is the value this rank waits for next, the same count on both); other ranks return. */
void line_pings(struct team *t, volatile uint64_t *line, uint64_t *next, int pings);
void json_header(struct team *t, FILE *out);
void json_footer(struct team *t, FILE *out);
void expect_block(struct team *t, const char *buf, size_t bytes, int src, int block, int rot, const char *what);

/* benchmarks */
int bench_memcpy(struct team *t, FILE *out);
int bench_latency(struct team *t, FILE *out);
int bench_pingpong(struct team *t, FILE *out);
int bench_pingping(struct team *t, FILE *out);
int bench_onetoall(struct team *t, FILE *out);
int bench_collective(struct team *t, FILE *out);
int bench_probe(struct team *t, FILE *out);
int bench_claims(struct team *t, FILE *out);
int bench_lineping(struct team *t, FILE *out);

#endif
