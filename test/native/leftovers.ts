// What a native run may leave behind: its shared-memory segments in /dev/shm (named after the
// parent's pid) and its rank processes (children of that parent).
import { readdirSync, readFileSync } from 'node:fs';

export function segmentsOf(parent: number): string[] {
  return readdirSync('/dev/shm').filter((f) => f.startsWith(`intranode-native-${parent}-`));
}

/** Live processes whose parent is `parent`. */
export function childrenOf(parent: number): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid ...: comm may hold spaces, so read after the last ')'.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[1]) === parent && fields[0] !== 'Z') out.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return out;
}

export function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

export async function until(what: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!what()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Segments in /dev/shm whose run's parent no longer exists: what a run left behind. */
export function orphanSegments(): string[] {
  return readdirSync('/dev/shm').filter((f) => {
    const m = /^intranode-native-(\d+)-/.exec(f);
    return m !== null && !isAlive(Number(m[1]));
  });
}
