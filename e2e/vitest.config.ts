import { defineConfig } from 'vitest/config';

// Browser tests: real server process, real Chromium (Debian's package), one file at a time.
export default defineConfig({
  test: {
    name: 'e2e',
    root: import.meta.dirname,
    include: ['tests/**/*.test.ts'],
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 180_000,
    fileParallelism: false,
    globalSetup: ['./src/global-setup.ts'],
  },
});
