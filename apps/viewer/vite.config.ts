import { defineConfig } from 'vite';

// Served by the API server under /viewer (the web app embeds it in an iframe).
export default defineConfig({
  base: '/viewer/',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // three.js alone is ~600 kB unminified; one chunk is what an iframe page wants.
    chunkSizeWarningLimit: 1000,
  },
  // satellite.js 7 ships an optional WebAssembly build whose worker uses top-level await;
  // it is never started here, but Vite still bundles it and only 'es' workers allow that.
  worker: { format: 'es' },
  server: {
    proxy: { '/v1': 'http://localhost:8080' },
  },
});
