// `intranode viz`: builds the visualizer if its sources changed, serves viz/dist/ on localhost and
// prints the address. It opens no browser: on a headless machine there is none, and elsewhere the
// address is one click away.
import { createReadStream, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { URL } from 'node:url';
import { ensureVizBuild } from './build.mjs';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.png': 'image/png',
};

const USAGE = `Usage: intranode viz [--port N] [--host ADDRESS]
  Builds the visualizer if needed and serves it; prints the address to open.
      --port N        port to listen on (default 5183; 0 picks a free one)
      --host ADDRESS  address to listen on (default 127.0.0.1, this machine only)
`;

/** Parses `viz`'s flags; a mistake is reported with the usage and exit code 2, as the CLI does. */
export function parseVizArgs(argv) {
  const out = { port: 5183, host: '127.0.0.1' };
  const seen = new Set();
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split(/=(.*)/s, 2);
    const value = () => inline ?? argv[++i];
    // Each option once, as the other commands take them: a second value is a mistake, not an override.
    if ((flag === '--port' || flag === '--host') && seen.has(flag)) return { error: `${flag} is given twice` };
    seen.add(flag);
    if (flag === '--port') {
      const text = value();
      if (!/^\d+$/.test(text ?? '') || Number(text) > 65535)
        return { error: `--port needs a port number (0-65535), got '${text ?? ''}'` };
      out.port = Number(text);
    } else if (flag === '--host') {
      const text = value();
      if (!text) return { error: '--host needs an address' };
      out.host = text;
    } else if (flag === '--help' || flag === '-h') {
      return { help: true };
    } else {
      return { error: `unknown option '${argv[i]}' for 'viz' (it takes --port and --host)` };
    }
  }
  return out;
}

/** Serves `root` until the process ends; resolves with the address once listening. `root` may be a
 *  function giving the folder, undefined while it is still being built (the page then answers 503). */
export function serve(root, { port, host }) {
  const rootNow = typeof root === 'function' ? root : () => root;
  const server = createServer((req, res) => {
    const root = rootNow();
    if (root === undefined) {
      res.writeHead(503, { 'content-type': 'text/plain', 'retry-after': '2' }).end('the visualizer is being built\n');
      return;
    }
    // A request whose path does not decode (a lone '%') is answered, not thrown: one bad request
    // from the network must not stop the server.
    let path;
    try {
      path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    } catch {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('malformed path\n');
      return;
    }
    const file = normalize(join(root, path.endsWith('/') ? `${path}index.html` : path));
    if (file !== root && !file.startsWith(root + sep)) {
      res.writeHead(403).end();
      return;
    }
    let size;
    try {
      const st = statSync(file);
      if (!st.isFile()) throw new Error('not a file');
      size = st.size;
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream', 'content-length': size });
    // A file gone between stat and read ends this response, not the process.
    createReadStream(file)
      .on('error', () => res.destroy())
      .pipe(res);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const address = server.address();
      const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      resolve({ server, url: `http://${shown}:${address.port}/` });
    });
  });
}

/** The command: returns an exit code when it stops early; otherwise serves until interrupted. */
export async function vizCommand(
  argv,
  { stdout = (t) => process.stdout.write(t), stderr = (t) => process.stderr.write(t) } = {},
) {
  const args = parseVizArgs(argv);
  if (args.help) {
    stdout(USAGE);
    return 0;
  }
  if (args.error) {
    stderr(`intranode: ${args.error}\nTry 'intranode viz --help'.\n`);
    return 2;
  }
  // The port first: a busy one is said at once, not after a build.
  let root;
  let listening;
  try {
    listening = await serve(() => root, args);
  } catch (e) {
    stderr(`intranode: cannot listen on ${args.host}:${args.port}: ${e.message}\n`);
    return 1;
  }
  try {
    root = await ensureVizBuild({ log: stderr });
  } catch (e) {
    listening.server.close();
    // A checkout the user may not write (the build goes to viz/dist), or a build that fails: one
    // line, not the bundler's stack.
    const reason =
      e?.code === 'EACCES' || e?.code === 'EPERM'
        ? 'permission denied'
        : (e?.code ?? String(e?.message ?? e).split('\n')[0]);
    stderr(`intranode: cannot build the visualizer into viz/dist: ${reason}\n`);
    return 1;
  }
  stdout(`intranode viz: serving the visualizer at ${listening.url}\n`);
  return undefined;
}
