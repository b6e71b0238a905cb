import { defineConfig } from 'vitest/config';
// The app runs on Preact (vite.config.ts: @preact/preset-vite): React's modules resolve to
// preact/compat here as in the build, the same aliases the preset sets.
const PREACT_ALIASES = {
  'react-dom/test-utils': 'preact/test-utils',
  'react-dom': 'preact/compat',
  'react/jsx-runtime': 'preact/jsx-runtime',
  react: 'preact/compat',
};

// Packages that import React: run through Vite (not loaded by Node) so that they get Preact too.
const USES_REACT = [
  /[\\/]node_modules[\\/]@mui[\\/]/,
  /[\\/]node_modules[\\/]@emotion[\\/]/,
  /[\\/]node_modules[\\/]@tanstack[\\/]react-query[\\/]/,
  /[\\/]node_modules[\\/]react-router[\\/]/,
  /[\\/]node_modules[\\/]@?react-leaflet[\\/]/,
  /[\\/]node_modules[\\/]react-chartjs-2[\\/]/,
  /[\\/]node_modules[\\/]react-transition-group[\\/]/,
  // Not a React package: through Vite so that it shares the one DOM Testing Library whose event
  // wrapper test/setup.ts sets (Node would load that library's CommonJS build, a second copy).
  /[\\/]node_modules[\\/]@testing-library[\\/]user-event[\\/]/,
];

export default defineConfig({
  resolve: {
    alias: PREACT_ALIASES,
    // ES modules where a package has both (react-router's `node` entry is CommonJS, which Node
    // would load with its own require, past the aliases).
    conditions: ['module', 'browser', 'development|production'],
    mainFields: ['module', 'main'],
  },
  test: {
    server: { deps: { inline: USES_REACT } },
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'test/**/*.test.ts', 'test/**/*.test.tsx'],
    setupFiles: ['./test/setup.ts'],
    restoreMocks: true,
    // Screens load their code on demand (lazy routes and dialogs); on a busy machine the first
    // import of a chunk takes seconds, which are waits, not what these tests check.
    testTimeout: 20_000,
  },
});
