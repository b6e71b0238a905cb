import { defineConfig, type PluginOption } from 'vite';
import react from '@vitejs/plugin-react';

// The API server (apps/server) serves these paths; in development Vite forwards them so the app
// runs same-origin exactly as it does when the server serves the built files.
const API_TARGET = process.env.TINYGS_API_URL ?? 'http://localhost:8080';
const PROXIED_PATHS = [
  '/v1',
  '/v2',
  '/sse',
  '/weblogin',
  '/credentials',
  '/images',
  '/pictures',
  '/viewer',
  '/docs',
  '/openapi.json',
];

// @vitejs/plugin-react is hoisted to the root node_modules and typed against the root's Vite 8
// (pulled in by Vitest), while this app builds with its own Vite 7: same runtime plugin shape.
const reactPlugin = react() as unknown as PluginOption;

// The contracts package holds only declarations (zod schemas, constants), but its schemas are built
// with chained calls a bundler cannot prove pure. Declaring its modules side-effect free lets a
// screen that needs one constant skip every schema it does not use (and zod with them).
const contractsArePure: PluginOption = {
  name: 'tinygs-contracts-side-effect-free',
  transform(code, id) {
    if (!/[\\/]packages[\\/]contracts[\\/]src[\\/]/.test(id)) return null;
    return { code, map: null, moduleSideEffects: false };
  },
};

export default defineConfig({
  base: '/',
  plugins: [reactPlugin, contractsArePure],
  worker: { format: 'es' },
  build: {
    outDir: 'dist',
    target: 'es2022',
    sourcemap: true,
  },
  server: {
    proxy: Object.fromEntries(
      PROXIED_PATHS.map((path) => [path, { target: API_TARGET, changeOrigin: true, ws: false }]),
    ),
  },
});
