import { defineConfig } from 'vitest/config';

// Each workspace owns its vitest.config.ts; this file only lists them.
export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/server', 'apps/web'],
  },
});
