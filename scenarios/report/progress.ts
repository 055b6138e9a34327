// A progress bar for long sweeps. It appears only on a terminal, and only once the sweep has run
// for more than a second, so short runs and redirected output stay clean.

export interface ProgressTarget {
  write: (text: string) => void;
  isTTY: boolean;
  /** Milliseconds; injected so tests need no real clock. */
  now: () => number;
}

export interface ProgressBar {
  update(done: number, total: number): void;
  /** Erases the bar if it was drawn. */
  finish(): void;
}

const DELAY_MS = 1000;
const WIDTH = 30;

export function createProgressBar(target: ProgressTarget): ProgressBar {
  const start = target.now();
  let drawn = false;
  return {
    update(done, total) {
      if (!target.isTTY || target.now() - start <= DELAY_MS || total <= 0) return;
      const filled = Math.round((WIDTH * done) / total);
      target.write(`\r[${'#'.repeat(filled)}${' '.repeat(WIDTH - filled)}] ${done}/${total} points`);
      drawn = true;
    },
    finish() {
      if (drawn) target.write(`\r${' '.repeat(WIDTH + 30)}\r`);
      drawn = false;
    },
  };
}
