// Runs the `intranode` command in-process and captures what it prints.
import type { CliEnv } from '../../scenarios/cli/env.ts';
import { main } from '../../scenarios/cli/main.ts';

export interface CliOutcome {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * `env` replaces parts of the real environment. stderr is never a terminal here, and points run in
 * this thread unless a test asks for `--jobs` (or sets defaultJobs), so stand-in runners are used.
 */
export async function runCli(argv: string[], env: Partial<CliEnv> = {}): Promise<CliOutcome> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, {
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    stderrIsTTY: false,
    defaultJobs: 1,
    ...env,
  });
  return { code, stdout, stderr };
}
