import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    projects: [
      'packages/*',
      'examples/*',
      // The API reports check (scripts/api-report.mjs): every package's type surface.
      { test: { name: 'api-report', include: ['scripts/*.test.mjs'] } },
    ],
  },
})
