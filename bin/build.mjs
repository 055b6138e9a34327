// The compiled CLI in dist/: the TypeScript sources transpiled file by file with esbuild (a
// dependency of tsx, so present wherever the CLI's dependencies are), the tree kept as it is so
// that paths taken from import.meta.url (presets, the default scenario, package.json) still hold.
//
// A build lives in dist/<fingerprint>/, where the fingerprint hashes every source file's path,
// size and modification time: an edited, added or removed source gives a new fingerprint, so a
// stale build is never run, and checking costs one stat per file (a few milliseconds).
// `node bin/build.mjs` builds now (npm's `prepare` runs it on install); the launcher builds on first
// use when the current fingerprint has no build.
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, URL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIST = join(ROOT, 'dist');
/** The folders the CLI runs from (tests and benchmarks are not part of it). */
const SOURCE_DIRS = ['common', 'sim', 'hardware', 'algorithms', 'scenarios', 'native-validate'];
/** Not sources: the native backend's compiled programs (native-validate/build.sh writes them). */
const SKIP_DIRS = ['native-validate/build'];
/** Read at run time relative to a module; copied next to the build's modules. */
const EXTRA_FILES = ['package.json'];
// The lock file fixes the esbuild version that compiles the sources: fingerprinted, not copied.
const LOCK_FILE = 'package-lock.json';
/** Written last: a build directory without it was interrupted and is not used. */
const COMPLETE = '.complete';
const USERS = '.users';

function sourceFiles() {
  const files = [];
  const walk = (dir) => {
    for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIP_DIRS.includes(path)) walk(path);
      } else if (entry.isFile()) files.push(path);
    }
  };
  for (const dir of SOURCE_DIRS) walk(dir);
  return files.sort();
}

/** The directory the current sources' build lives in, and whether it is complete. */
export function currentBuild() {
  const files = sourceFiles();
  const hash = createHash('sha1');
  // This script and the locked esbuild version decide what the output is, so they are part of the fingerprint.
  for (const path of [...files, ...EXTRA_FILES, LOCK_FILE, 'bin/build.mjs']) {
    const st = statSync(join(ROOT, path));
    hash.update(`${path}\0${st.size}\0${st.mtimeMs}\n`);
  }
  const dir = join(DIST, hash.digest('hex').slice(0, 16));
  return { dir, files, ready: existsSync(join(dir, COMPLETE)) };
}

/** Builds the current sources unless already built; returns the build's directory. */
export async function ensureBuild() {
  const build = currentBuild();
  if (build.ready) return markInUse(build.dir);
  const { build: esbuild } = await import('esbuild');
  // Built beside the final place and renamed into it, so a concurrent run never sees half a build.
  const tmp = `${build.dir}.tmp-${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  const entryPoints = build.files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'));
  await esbuild({
    absWorkingDir: ROOT,
    entryPoints,
    outdir: tmp,
    outbase: '.',
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'error',
    plugins: [keepModulesApart],
  });
  for (const path of [...build.files.filter((f) => !f.endsWith('.ts')), ...EXTRA_FILES]) {
    cpSync(join(ROOT, path), join(tmp, path));
  }
  writeFileSync(join(tmp, COMPLETE), '');
  try {
    renameSync(tmp, build.dir);
  } catch (e) {
    // Another run built the same sources first; its build is identical.
    rmSync(tmp, { recursive: true, force: true });
    if (!existsSync(join(build.dir, COMPLETE))) throw e;
  }
  markInUse(build.dir);
  removeOtherBuilds(build.dir);
  return build.dir;
}

/**
 * Records that this process runs from `dir` until it exits, so that a build of newer sources made
 * meanwhile (the sources edited during a long reproduce) does not delete it under a running sweep.
 */
export function markInUse(dir) {
  const users = join(dir, USERS);
  mkdirSync(users, { recursive: true });
  const mine = join(users, String(process.pid));
  writeFileSync(mine, '');
  process.once('exit', () => rmSync(mine, { force: true }));
  return dir;
}

/** Whether a live process other than this one runs from the build in `dir`. */
function inUse(dir) {
  const users = join(dir, USERS);
  if (!existsSync(users)) return false;
  return readdirSync(users).some((pid) => Number(pid) !== process.pid && isRunning(Number(pid)));
}

/**
 * esbuild transpiles one file per entry point only in bundle mode with every import left
 * external; relative imports are renamed from .ts to the .js files the build writes.
 */
const keepModulesApart = {
  name: 'keep-modules-apart',
  setup(b) {
    b.onResolve({ filter: /.*/ }, (args) => {
      if (args.kind === 'entry-point') return undefined;
      const relativeTs = args.path.startsWith('.') && args.path.endsWith('.ts');
      return { path: relativeTs ? `${args.path.slice(0, -3)}.js` : args.path, external: true };
    });
  },
};

/**
 * Once a new build is in place the older ones go, so dist/ holds one build; so do half-written
 * builds whose process is gone (interrupted), but not those of a run still building, nor builds a
 * running process still uses.
 */
function removeOtherBuilds(keep) {
  for (const entry of readdirSync(DIST)) {
    const path = join(DIST, entry);
    const builder = /\.tmp-(\d+)$/.exec(entry);
    if (path === keep || (builder && isRunning(Number(builder[1]))) || (!builder && inUse(path))) continue;
    rmSync(path, { recursive: true, force: true });
  }
}

function isRunning(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: the process exists but belongs to someone else.
    return e.code === 'EPERM';
  }
}

if (process.argv[1] && relative(process.argv[1], fileURLToPath(import.meta.url)) === '') {
  const dir = await ensureBuild();
  process.stdout.write(`intranode: built ${relative(ROOT, dir)}\n`);
}
