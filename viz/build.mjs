// Builds the visualizer into viz/dist/ (a static site) when its sources changed since the last
// build: `npm run viz:build` always builds, `intranode viz` only when needed. The sources are the
// visualizer's own and the layers it bundles; their paths, sizes and modification times make the
// fingerprint kept beside the build.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath, URL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const VIZ_DIST = join(ROOT, 'viz', 'dist');
const SOURCES = [
  'viz/src',
  'viz/index.html',
  'viz/vite.config.ts',
  'viz/build.mjs',
  'common',
  'sim',
  'hardware',
  'algorithms',
  'scenarios',
  'package-lock.json',
];
const STAMP = join(VIZ_DIST, '.sources');

function fingerprint() {
  const hash = createHash('sha1');
  const add = (path) => {
    const st = statSync(join(ROOT, path));
    if (st.isDirectory()) {
      for (const entry of readdirSync(join(ROOT, path)).sort()) add(join(path, entry));
    } else {
      hash.update(`${path}\0${st.size}\0${st.mtimeMs}\n`);
    }
  };
  for (const path of SOURCES) add(path);
  return hash.digest('hex');
}

/** Builds unless the build in viz/dist/ is of the current sources (or `force`); returns its folder. */
export async function ensureVizBuild({ force = false, log = () => {} } = {}) {
  const print = fingerprint();
  if (!force && existsSync(STAMP) && readFileSync(STAMP, 'utf8') === print) return VIZ_DIST;
  log('intranode viz: building the visualizer (viz/dist/)...\n');
  const { build } = await import('vite');
  await build({ configFile: join(ROOT, 'viz', 'vite.config.ts'), logLevel: 'warn' });
  writeFileSync(STAMP, print);
  return VIZ_DIST;
}

if (process.argv[1] && relative(process.argv[1], fileURLToPath(import.meta.url)) === '') {
  const dir = await ensureVizBuild({ force: true });
  process.stdout.write(`intranode: built the visualizer in ${relative(ROOT, dir)}/\n`);
}
