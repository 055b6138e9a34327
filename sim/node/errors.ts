// Errors a simulated kernel call returns to the program, named like the errno the real driver sets,
// so an event program can catch and react to them exactly as MPI code does.

export type Errno = 'ENODEV' | 'ENOSYS' | 'EINVAL' | 'EACCES' | 'EFAULT' | 'ENOENT' | 'EPERM' | 'ESRCH';

export class MechanismError extends Error {
  readonly errno: Errno;
  readonly mechanism: string;

  constructor(mechanism: string, errno: Errno, detail: string) {
    super(`${mechanism}: ${errno}: ${detail}`);
    this.name = 'MechanismError';
    this.errno = errno;
    this.mechanism = mechanism;
  }
}
