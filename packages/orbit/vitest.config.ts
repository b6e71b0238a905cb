import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { name: 'orbit', include: ['test/**/*.test.ts'], environment: 'node' },
});
