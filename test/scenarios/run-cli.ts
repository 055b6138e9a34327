// Runs the `intranode` command in-process and captures what it prints.
import type { CliEnv } from '../../scenarios/cli/env.ts';
import { main } from '../../scenarios/cli/main.ts';

export interface CliOutcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** `env` replaces parts of the real environment (stderr is never a terminal here). */
export async function runCli(argv: string[], env: Partial<CliEnv> = {}): Promise<CliOutcome> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, {
    stdout: (t) => void (stdout += t),
    stderr: (t) => void (stderr += t),
    stderrIsTTY: false,
    ...env,
  });
  return { code, stdout, stderr };
}
