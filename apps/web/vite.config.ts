import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import { defineConfig, type PluginOption, type UserConfig } from 'vite';
import { preact } from '@preact/preset-vite';

// The API server (apps/server) serves these paths; in development Vite forwards them so the app
// runs same-origin exactly as it does when the server serves the built files.
const API_TARGET = process.env.TINYGS_API_URL ?? 'http://localhost:8080';
const PROXIED_PATHS = [
  '/v1',
  '/v2',
  '/sse',
  '/weblogin',
  // the bot check's challenge (ALTCHA)
  '/altcha',
  '/credentials',
  '/images',
  '/pictures',
  '/viewer',
  '/docs',
  '/openapi.json',
];

// The app is written against React's API and runs on Preact: the preset resolves react and
// react-dom to preact/compat (the same components for about a sixth of React DOM's size on the
// first visit) and gives the development server Preact's hot reload. vitest.config.ts resolves them
// alike, so the tests run what ships. The preset is hoisted to the root node_modules and typed
// against the root's Vite 8 (pulled in by Vitest), while this app builds with its own Vite 7.
const preactPlugin = preact() as unknown as PluginOption;

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

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

// Next to every text asset, its .br (quality 11) and .gz (level 9): a static server that serves
// precompressed files (@fastify/static `preCompressed`) then sends the entry chunk straight from
// disk instead of compressing it on every request, which costs 10-50 ms on the critical path.
const precompressed: PluginOption = {
  name: 'tinygs-precompress',
  apply: 'build',
  async writeBundle(options, bundle) {
    const dir = options.dir ?? 'dist';
    const files = Object.keys(bundle).filter((f) => /\.(js|css|html|svg|json)$/.test(f));
    await Promise.all(
      files.map(async (file) => {
        const path = join(dir, file);
        const data = await readFile(path);
        if (data.length < 1024) return;
        const [br, gz] = await Promise.all([
          brotli(data, { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }),
          gzipped(data, { level: 9 }),
        ]);
        await Promise.all([writeFile(`${path}.br`, br), writeFile(`${path}.gz`, gz)]);
      }),
    );
  },
};

const config = {
  base: '/',
  plugins: [preactPlugin, contractsArePure, precompressed],
  // The map worker is bundled on its own and takes only the plugins named here: without this one it
  // would carry every contracts schema and all of zod (about 30 KB gzip) for a few constants.
  worker: { format: 'es', plugins: () => [contractsArePure] },
  build: {
    outDir: 'dist',
    target: 'es2022',
    sourcemap: true,
    minify: 'terser',
    terserOptions: { compress: { passes: 2 }, format: { comments: false } },
    // Leaflet's stylesheet names PNGs for the layers control and the default marker icon, which
    // the app never shows (its maps draw on a canvas); inlined they would be 5 KB of base64 in the
    // map's CSS on every first visit. As files they load only if something ever uses them.
    assetsInlineLimit: (file) =>
      /[\\/]node_modules[\\/]leaflet[\\/]/.test(file) ? false : undefined,
  },
  server: {
    proxy: Object.fromEntries(
      PROXIED_PATHS.map((path) => [path, { target: API_TARGET, changeOrigin: true, ws: false }]),
    ),
  },
} satisfies UserConfig;

export default defineConfig(({ command, mode }) => {
  // `vite build` takes NODE_ENV from the environment when it is set, and test runners set it to
  // `test` (the browser tests build the app from inside Vitest): that would ship React's
  // development build. A production-mode build is always a production build.
  if (command === 'build' && mode === 'production') process.env.NODE_ENV = 'production';
  return config;
});
