import { defineProject } from 'vitest/config'
import { sharedTimeouts, workspaceAlias } from '../../vitest.shared.js'

export default defineProject({
  resolve: { alias: workspaceAlias },
  // Every end-to-end file imports the whole svcdb server; sharing the module cache between
  // files of a worker halves the run. The files share no state (each starts its own server).
  test: { ...sharedTimeouts, name: 'sessions-app', isolate: false },
})
