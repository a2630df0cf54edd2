import { configDefaults, defineProject } from 'vitest/config'
import { clusterTests, workspaceAlias } from '../../vitest.shared.js'

export default defineProject({
  resolve: { alias: workspaceAlias },
  test: { name: 'server', exclude: [...configDefaults.exclude, clusterTests] },
})
