// The waitable building blocks processes synchronise with.

export { Signal } from './signal.ts';
export { Mutex } from './mutex.ts';
export { RwLock } from './rw-lock.ts';
export { Semaphore } from './semaphore.ts';
export { Channel } from './channel.ts';
export { all, any, fired } from './combinators.ts';
