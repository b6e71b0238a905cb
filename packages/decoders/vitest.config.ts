import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { name: 'decoders', include: ['test/**/*.test.ts'], environment: 'node' },
});
