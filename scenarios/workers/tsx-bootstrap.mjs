// Starts a worker from the TypeScript sources (under vitest, or the CLI run through tsx): worker
// threads do not inherit the parent's TypeScript loader, so this registers tsx, then loads the
// worker module named in workerData.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
