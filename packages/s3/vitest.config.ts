import { configDefaults, defineProject } from 'vitest/config'
import { clusterTests, workspaceAlias, sharedTimeouts } from '../../vitest.shared.js'

export default defineProject({
  resolve: { alias: workspaceAlias },
  test: { ...sharedTimeouts, name: 's3', exclude: [...configDefaults.exclude, clusterTests] },
})
