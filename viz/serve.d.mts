// Types of serve.mjs for the tests that import it (the launcher runs it as plain JavaScript).
import type { Server } from 'node:http';

export type VizArgs = { port: number; host: string } | { error: string } | { help: true };
export function parseVizArgs(argv: string[]): VizArgs;
/** `root`, or a function giving it (undefined while it is being built: the page answers 503). */
export function serve(
  root: string | (() => string | undefined),
  opts: { port: number; host: string },
): Promise<{ server: Server; url: string }>;
export function vizCommand(
  argv: string[],
  io?: { stdout?: (text: string) => void; stderr?: (text: string) => void },
): Promise<number | undefined>;
