// The visualizer's build: a static site in viz/dist/ that any web server can host.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root,
  base: './',
  logLevel: 'warn',
  build: {
    outDir: fileURLToPath(new URL('./dist', import.meta.url)),
    emptyOutDir: true,
    // d3 and the simulator make one large chunk; it is loaded once.
    chunkSizeWarningLimit: 4000,
  },
  worker: { format: 'es' },
});
