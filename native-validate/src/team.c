/* The team: N rank processes forked from one parent, each pinned to its core, synchronising through
 * one POSIX shared-memory segment. The parent only waits; it owns cleanup. Whatever ends the run
 * (success, a rank's failure, the timeout, SIGINT, SIGTERM, SIGHUP), the parent kills and reaps
 * every child and unlinks the segment before it exits. If the parent itself is killed with
 * SIGKILL, the children die with it (PR_SET_PDEATHSIG) and the next run removes the segment it
 * left (its name carries the dead parent's pid). If the program that started the parent dies (the
 * intranode command killed on its own, as a job scheduler or `kill PID` does), the parent gets
 * SIGTERM (PR_SET_PDEATHSIG again) and cleans up as for any SIGTERM; it ignores SIGPIPE, so that
 * saying so on a stderr nobody reads any more cannot kill it before the segment is gone. */
#include "native.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define SEGMENT_PREFIX "intranode-native-"

static pid_t children[MAX_RANKS];
static volatile sig_atomic_t nchildren;
static volatile sig_atomic_t stop_signal;
static struct team *self;

static void kill_children(void) {
  for (int i = 0; i < nchildren; i++)
    if (children[i] > 0) kill(children[i], SIGKILL);
}

static void on_signal(int sig) {
  stop_signal = sig;
  kill_children(); /* async-signal-safe: waitpid in the parent then returns */
}

double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

void fail(struct team *t, const char *fmt, ...) {
  /* One write per message: two ranks failing at once must not interleave their words. */
  char text[512];
  int n = snprintf(text, sizeof text, "intranode-native: rank %d: ", t ? t->rank : -1);
  va_list ap;
  va_start(ap, fmt);
  if (n >= 0 && (size_t)n < sizeof text) n += vsnprintf(text + n, sizeof text - (size_t)n, fmt, ap);
  va_end(ap);
  if (n < 0 || (size_t)n >= sizeof text - 1) n = (int)sizeof text - 2;
  text[n++] = '\n';
  ssize_t ignored = write(STDERR_FILENO, text, (size_t)n);
  (void)ignored;
  if (t) t->hdr->failed = 1;
  _exit(2);
}

void relax(unsigned *spins) {
  /* Busy-poll, as MPI libraries do on cores of their own (Open MPI yields only when oversubscribed,
   * which the backend refuses): yielding would hand the core to other work and time the scheduler,
   * not the transfer. Every so often, see whether another rank failed. */
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
  if (++*spins % 4096 == 0 && self && self->hdr->failed) fail(self, "stopping: another rank failed");
}

/* How far ahead of its release the last rank to reach team_start sets the common start: several
 * times a line's trip between cores (the `trip(ns)` column of docs/validation.md), so that every
 * rank has seen the release before it. */
#define START_MARGIN_NS 2000.0

/* A sense-reversing barrier. With a margin, the last rank to arrive also sets a start time that far
 * ahead before it releases the others, and every rank waits for it (team_start). */
static void sync_ranks(struct team *t, double margin_ns) {
  uint64_t sense = t->local_sense ^ 1;
  t->local_sense = sense;
  if (__atomic_add_fetch(&t->hdr->barrier_count, 1, __ATOMIC_ACQ_REL) == (uint64_t)t->size) {
    __atomic_store_n(&t->hdr->barrier_count, 0, __ATOMIC_RELAXED);
    if (margin_ns > 0) t->hdr->start_at = now_ns() + margin_ns;
    __atomic_store_n(&t->hdr->barrier_sense, sense, __ATOMIC_RELEASE);
  } else {
    unsigned spins = 0;
    while (__atomic_load_n(&t->hdr->barrier_sense, __ATOMIC_ACQUIRE) != sense) relax(&spins);
  }
  if (margin_ns <= 0) return;
  double at = t->hdr->start_at;
  unsigned spins = 0;
  while (now_ns() < at) relax(&spins);
}

void team_barrier(struct team *t) { sync_ranks(t, 0); }

/* A barrier after which every rank starts at one instant. After team_barrier the last rank to
 * arrive runs on at once and the others only once its release reaches them, a line's trip later;
 * an iteration timed from the earliest start to the latest end would count that skew, which the
 * simulator's iteration, whose ranks all start together, does not have. */
void team_start(struct team *t) { sync_ranks(t, START_MARGIN_NS); }

void mail_post(struct team *t, int dst, uint64_t a, uint64_t b, uint64_t c) {
  struct mailbox *m = &t->mail[dst * t->size + t->rank];
  /* One message in flight per (src, dst): wait until the last one was taken. */
  unsigned spins = 0;
  while (__atomic_load_n(&m->seq, __ATOMIC_ACQUIRE) & 1) relax(&spins);
  m->word[0] = a;
  m->word[1] = b;
  m->word[2] = c;
  __atomic_store_n(&m->seq, ((t->mail_sent[dst] + 1) << 1) | 1, __ATOMIC_RELEASE);
  t->mail_sent[dst]++;
}

int mail_ready(struct team *t, int src) {
  return (int)(__atomic_load_n(&t->mail[t->rank * t->size + src].seq, __ATOMIC_ACQUIRE) & 1);
}

void mail_wait(struct team *t, int src, uint64_t out[3]) {
  struct mailbox *m = &t->mail[t->rank * t->size + src];
  unsigned spins = 0;
  while (!(__atomic_load_n(&m->seq, __ATOMIC_ACQUIRE) & 1)) relax(&spins);
  out[0] = m->word[0];
  out[1] = m->word[1];
  out[2] = m->word[2];
  __atomic_store_n(&m->seq, m->seq & ~(uint64_t)1, __ATOMIC_RELEASE);
  t->mail_seen[src]++;
}

void *alloc_local(size_t bytes) {
  if (bytes == 0) bytes = 1;
  void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) fail(self, "mmap %zu bytes: %s", bytes, strerror(errno));
  memset(p, 0, bytes); /* first touch by the owner, pinned already: pages land on its NUMA node */
  return p;
}

/* Segments of runs whose parent no longer exists (killed with SIGKILL): removed before a new run. */
static void remove_stale_segments(void) {
  DIR *d = opendir("/dev/shm");
  if (!d) return;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (strncmp(e->d_name, SEGMENT_PREFIX, strlen(SEGMENT_PREFIX)) != 0) continue;
    long pid = strtol(e->d_name + strlen(SEGMENT_PREFIX), NULL, 10);
    if (pid > 0 && kill((pid_t)pid, 0) != 0 && errno == ESRCH) {
      char name[300];
      snprintf(name, sizeof name, "/%s", e->d_name);
      shm_unlink(name);
    }
  }
  closedir(d);
}

static size_t segment_bytes(const struct options *o) {
  size_t n = (size_t)o->ranks;
  return sizeof(struct shared_header) + n * n * sizeof(struct mailbox) +
         n * n * (size_t)o->slots * sizeof(struct slot_flag) + n * n * (size_t)o->slots * o->frag;
}

static void map_team(struct team *t, void *base) {
  size_t n = (size_t)t->size;
  t->hdr = base;
  t->mail = (struct mailbox *)((char *)base + sizeof(struct shared_header));
  t->flags = (struct slot_flag *)(t->mail + n * n);
  t->rings = (char *)(t->flags + n * n * (size_t)t->opt->slots);
}

static int child(const struct options *opt, int rank, const char *name, int (*body)(struct team *, FILE *),
                 FILE *out) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (opt->nodump) prctl(PR_SET_DUMPABLE, 0);
  signal(SIGINT, SIG_DFL);
  signal(SIGTERM, SIG_DFL);
  signal(SIGHUP, SIG_DFL);
  signal(SIGALRM, SIG_DFL);
  sigset_t none;
  sigemptyset(&none);
  sigprocmask(SIG_SETMASK, &none, NULL);
  static struct team t;
  memset(&t, 0, sizeof t);
  t.rank = rank;
  t.size = opt->ranks;
  t.opt = opt;
  self = &t;
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(opt->cores[rank], &set);
  if (sched_setaffinity(0, sizeof set, &set) != 0)
    fail(NULL, "cannot pin to core %d: %s", opt->cores[rank], strerror(errno));
  int fd = shm_open(name, O_RDWR, 0600);
  if (fd < 0) fail(NULL, "shm_open %s: %s", name, strerror(errno));
  void *base = mmap(NULL, segment_bytes(opt), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  close(fd);
  if (base == MAP_FAILED) fail(NULL, "mmap of the shared segment: %s", strerror(errno));
  map_team(&t, base);
  t.hdr->pids[rank] = getpid();
  team_barrier(&t);
  if (opt->hold_ms > 0) {
    struct timespec ts = {opt->hold_ms / 1000, (opt->hold_ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
  }
  /* Results go out only when the whole run succeeded: a failed run prints no partial JSON. */
  char *text = NULL;
  size_t len = 0;
  FILE *mem = open_memstream(&text, &len);
  if (!mem) fail(&t, "open_memstream: %s", strerror(errno));
  int rc = body(&t, mem);
  fclose(mem);
  if (rc == 0 && rank == 0) {
    fwrite(text, 1, len, out);
    fflush(out);
  }
  free(text);
  return rc;
}

int team_run(const struct options *opt, int (*body)(struct team *, FILE *out), FILE *out) {
  remove_stale_segments();
  char name[96];
  snprintf(name, sizeof name, "/" SEGMENT_PREFIX "%ld-%ld", (long)getpid(), (long)time(NULL));
  int fd = shm_open(name, O_CREAT | O_EXCL | O_RDWR, 0600);
  if (fd < 0) {
    fprintf(stderr, "intranode-native: shm_open %s: %s\n", name, strerror(errno));
    return 2;
  }
  int rc = 0;
  if (ftruncate(fd, (off_t)segment_bytes(opt)) != 0) {
    fprintf(stderr, "intranode-native: shared segment of %zu bytes: %s\n", segment_bytes(opt), strerror(errno));
    close(fd);
    shm_unlink(name);
    return 2;
  }
  close(fd);

  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal; /* no SA_RESTART: waitpid returns EINTR */
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
  sigaction(SIGHUP, &sa, NULL);
  sigaction(SIGALRM, &sa, NULL);
  signal(SIGPIPE, SIG_IGN);
  prctl(PR_SET_PDEATHSIG, SIGTERM);
  if (getppid() != opt->launcher) raise(SIGTERM); /* the launcher died before the line above */
  sigset_t block, old;
  sigemptyset(&block);
  sigaddset(&block, SIGINT);
  sigaddset(&block, SIGTERM);
  sigaddset(&block, SIGHUP);
  sigaddset(&block, SIGALRM);
  sigprocmask(SIG_BLOCK, &block, &old); /* no signal between a fork and recording its child */
  fflush(NULL);
  for (int r = 0; r < opt->ranks; r++) {
    pid_t pid = fork();
    if (pid < 0) {
      fprintf(stderr, "intranode-native: fork: %s\n", strerror(errno));
      rc = 2;
      break;
    }
    if (pid == 0) _exit(child(opt, r, name, body, out));
    children[r] = pid;
    nchildren = r + 1;
  }
  if (rc == 0 && opt->timeout_s > 0) alarm((unsigned)opt->timeout_s);
  sigprocmask(SIG_SETMASK, &old, NULL);
  if (rc != 0) kill_children();

  int alive = nchildren;
  while (alive > 0) {
    int status;
    pid_t pid = waitpid(-1, &status, 0);
    if (pid < 0) {
      if (errno == EINTR) continue;
      break;
    }
    alive--;
    int bad = !WIFEXITED(status) || WEXITSTATUS(status) != 0;
    if (bad && rc == 0 && !stop_signal) {
      int r = 0;
      while (r < nchildren && children[r] != pid) r++;
      if (WIFSIGNALED(status))
        fprintf(stderr, "intranode-native: rank %d died of signal %d\n", r, WTERMSIG(status));
      rc = 2;
      kill_children();
    }
    for (int i = 0; i < nchildren; i++)
      if (children[i] == pid) children[i] = 0;
  }
  alarm(0);
  shm_unlink(name);
  if (stop_signal == SIGALRM) {
    fprintf(stderr, "intranode-native: timed out after %d s; every rank killed\n", opt->timeout_s);
    return 124;
  }
  if (stop_signal) {
    fprintf(stderr, "intranode-native: stopped by signal %d; every rank killed, segment removed\n", (int)stop_signal);
    return 128 + stop_signal;
  }
  return rc;
}
