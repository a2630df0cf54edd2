import { defineProject } from 'vitest/config'
import { workspaceAlias } from '../../vitest.shared.js'

export default defineProject({
  resolve: { alias: workspaceAlias },
  // Each test spawns the built binary several times; a node start costs ~0.3 s here.
  test: { name: 'cli', testTimeout: 60_000, hookTimeout: 60_000 },
})
