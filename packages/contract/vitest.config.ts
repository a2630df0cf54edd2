import { defineProject } from 'vitest/config'
import { workspaceAlias, sharedTimeouts } from '../../vitest.shared.js'

export default defineProject({
  resolve: { alias: workspaceAlias },
  test: { ...sharedTimeouts, name: 'contract' },
})
