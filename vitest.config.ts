import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    // Two files at a time: vitest's default on two cores is one, which left a core idle while
    // most files wait on disks, child processes and sockets (CI: 19 min; DESIGN §9 machine).
    maxWorkers: 2,
    projects: [
      'packages/*',
      'examples/*',
      // The API reports check (scripts/api-report.mjs): every package's type surface.
      { test: { name: 'api-report', include: ['scripts/*.test.mjs'] } },
    ],
  },
})
