#!/usr/bin/env node
// Entry point for `npx intranode`: runs the compiled CLI from dist/, building it first when the
// sources changed since the last build (see build.mjs). If it cannot be built, the TypeScript
// sources run through tsx instead, as they would without a build.
import { pathToFileURL } from 'node:url';
import { ensureBuild } from './build.mjs';

async function loadMain() {
  let dir;
  try {
    dir = await ensureBuild();
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    process.stderr.write(`intranode: could not build dist/ (${why}); running the TypeScript sources\n`);
    const { register } = await import('tsx/esm/api');
    register();
    return (await import('../scenarios/cli/main.ts')).main;
  }
  return (await import(pathToFileURL(`${dir}/scenarios/cli/main.js`).href)).main;
}

const argv = process.argv.slice(2);
if (argv[0] === 'viz') {
  // The visualizer sits above the CLI's layers, so its command is dispatched here.
  const { vizCommand } = await import('../viz/serve.mjs');
  const code = await vizCommand(argv.slice(1));
  if (code !== undefined) process.exitCode = code;
} else {
  const main = await loadMain();
  process.exitCode = await main(argv);
}
