// `intranode viz`'s flags and its static server (the browser test runs the whole command).
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseVizArgs, serve, vizCommand } from '../../viz/serve.mjs';

describe('intranode viz flags', () => {
  it('reads --port and --host, and names what it cannot read', () => {
    expect(parseVizArgs([])).toEqual({ port: 5183, host: '127.0.0.1' });
    expect(parseVizArgs(['--port', '0', '--host=::1'])).toEqual({ port: 0, host: '::1' });
    expect(parseVizArgs(['--port', 'eighty'])).toEqual({ error: expect.stringContaining("'eighty'") as string });
    expect(parseVizArgs(['--open'])).toEqual({ error: expect.stringContaining("'--open'") as string });
    expect(parseVizArgs(['--port', '5183', '--port=5184'])).toEqual({ error: '--port is given twice' });
    expect(parseVizArgs(['--host', 'a', '--host', 'b'])).toEqual({ error: '--host is given twice' });
  });

  it('exits 2 with the usage hint on a bad flag, before building anything', async () => {
    let err = '';
    const code = await vizCommand(['--port', '99999'], { stderr: (t) => void (err += t) });
    expect(code).toBe(2);
    expect(err).toContain("Try 'intranode viz --help'");
  });
});

describe('the static server', () => {
  it('serves files under its folder with their type, and nothing outside it', async () => {
    const base = mkdtempSync(join(tmpdir(), 'intranode-viz-'));
    const root = join(base, 'site');
    mkdirSync(join(root, 'assets'), { recursive: true });
    writeFileSync(join(root, 'index.html'), '<!doctype html><p>hi</p>');
    writeFileSync(join(root, 'assets', 'a.js'), 'export {};');
    const { server, url } = await serve(root, { port: 0, host: '127.0.0.1' });
    try {
      const index = await fetch(url);
      expect(index.status).toBe(200);
      expect(index.headers.get('content-type')).toContain('text/html');
      expect(await index.text()).toContain('hi');
      expect((await fetch(`${url}assets/a.js`)).headers.get('content-type')).toContain('javascript');
      expect((await fetch(`${url}missing.js`)).status).toBe(404);
      // The URL's own normalisation already folds `..` away; what is left must not leave the folder.
      writeFileSync(join(base, 'outside.txt'), 'secret');
      for (const path of ['%2e%2e/outside.txt', '..%2foutside.txt', 'assets/..%2f..%2foutside.txt']) {
        const res = await fetch(`${url}${path}`);
        expect([403, 404]).toContain(res.status);
      }
      // A path that does not decode is a bad request, and the server goes on serving.
      for (const path of ['%', '%E0%A4%A', 'assets/%zz']) expect((await fetch(`${url}${path}`)).status).toBe(400);
      expect((await fetch(url)).status).toBe(200);
    } finally {
      server.close();
    }
  });

  it('answers 503 while the folder is still being built, then serves it', async () => {
    const root = mkdtempSync(join(tmpdir(), 'intranode-viz-'));
    writeFileSync(join(root, 'index.html'), 'ready');
    let built: string | undefined;
    const { server, url } = await serve(() => built, { port: 0, host: '127.0.0.1' });
    try {
      expect((await fetch(url)).status).toBe(503);
      built = root;
      expect(await (await fetch(url)).text()).toBe('ready');
    } finally {
      server.close();
    }
  });

  it('says a busy port at once and exits 1', async () => {
    const busy = await serve(mkdtempSync(join(tmpdir(), 'intranode-viz-')), { port: 0, host: '127.0.0.1' });
    try {
      const port = new URL(busy.url).port;
      let err = '';
      const code = await vizCommand(['--port', port], { stderr: (t) => void (err += t) });
      expect(code).toBe(1);
      expect(err).toBe(
        `intranode: cannot listen on 127.0.0.1:${port}: listen EADDRINUSE: address already in use 127.0.0.1:${port}\n`,
      );
    } finally {
      busy.server.close();
    }
  });
});
