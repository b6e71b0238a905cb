import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
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
