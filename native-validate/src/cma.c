/* Cross Memory Attach: process_vm_readv / process_vm_writev on another rank's buffer. The kernel may
 * refuse them: EPERM when ptrace access is denied (Yama ptrace_scope, containers without
 * CAP_SYS_PTRACE), ENOSYS without CONFIG_CROSS_MEMORY_ATTACH. cma_probe tells which, so the driver
 * reports it and still runs the shared-memory measurements. */
#include "native.h"

#include <errno.h>
#include <string.h>
#include <sys/uio.h>

int cma_probe(pid_t peer, void *remote, size_t bytes) {
  char local[64];
  if (bytes > sizeof local) bytes = sizeof local;
  struct iovec l = {local, bytes}, r = {remote, bytes};
  ssize_t n = process_vm_readv(peer, &l, 1, &r, 1, 0);
  if (n < 0) return errno;
  return 0;
}

void cma_read(struct team *t, int peer, uint64_t remote, char *local, size_t bytes) {
  size_t done = 0;
  while (done < bytes) { /* a call may copy less than asked (a fault part-way): go on from there */
    struct iovec l = {local + done, bytes - done}, r = {(void *)(uintptr_t)(remote + done), bytes - done};
    ssize_t n = process_vm_readv(t->hdr->pids[peer], &l, 1, &r, 1, 0);
    if (n <= 0) fail(t, "process_vm_readv from rank %d: %s", peer, n < 0 ? strerror(errno) : "no progress");
    done += (size_t)n;
  }
}

void cma_write(struct team *t, int peer, uint64_t remote, const char *local, size_t bytes) {
  size_t done = 0;
  while (done < bytes) {
    struct iovec l = {(char *)local + done, bytes - done}, r = {(void *)(uintptr_t)(remote + done), bytes - done};
    ssize_t n = process_vm_writev(t->hdr->pids[peer], &l, 1, &r, 1, 0);
    if (n <= 0) fail(t, "process_vm_writev to rank %d: %s", peer, n < 0 ? strerror(errno) : "no progress");
    done += (size_t)n;
  }
}
