import { defineProject } from 'vitest/config'

export default defineProject({
  // Packing eight packages and installing them with npm takes a minute or two.
  test: { name: 'npm-install', testTimeout: 600_000, hookTimeout: 600_000 },
})
