#!/usr/bin/env node
// Entry point for `npx intranode`: runs the compiled CLI from dist/, building it first when the
// sources changed since the last build (see build.mjs). If it cannot be built, the TypeScript
// sources run through tsx instead, as they would without a build.
import { pathToFileURL } from 'node:url';
import { ensureBuild } from './build.mjs';

// `calibrate` and `validate` belong to native-validate/, which sits above the scenarios layer.
const NATIVE_COMMANDS = ['calibrate', 'validate'];

async function loadMain(native) {
  const [src, entry, fn] = native
    ? ['../native-validate/cli.ts', 'native-validate/cli.js', 'nativeMain']
    : ['../scenarios/cli/main.ts', 'scenarios/cli/main.js', 'main'];
  let dir;
  try {
    dir = await ensureBuild();
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    process.stderr.write(`intranode: could not build dist/ (${why}); running the TypeScript sources\n`);
    const { register } = await import('tsx/esm/api');
    register();
    return (await import(src))[fn];
  }
  return (await import(pathToFileURL(`${dir}/${entry}`).href))[fn];
}

// Output piped into a command that stops reading (`| head`) is not an error of ours: end quietly.
process.stdout.on('error', (e) => {
  if (e.code === 'EPIPE') process.exit(0);
  throw e;
});

const argv = process.argv.slice(2);
if (argv[0] === 'viz') {
  // The visualizer sits above the CLI's layers, so its command is dispatched here.
  const { vizCommand } = await import('../viz/serve.mjs');
  const code = await vizCommand(argv.slice(1));
  if (code !== undefined) process.exitCode = code;
} else {
  // The native commands answer --help and --version as the main CLI does, reading their own flags
  // to tell `--cores -h` (a flag without its value) from a request for help.
  const main = await loadMain(NATIVE_COMMANDS.includes(argv[0]));
  process.exitCode = await main(argv);
}
