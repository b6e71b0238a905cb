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
  server: {
    proxy: { '/v1': 'http://localhost:3000' },
  },
});
