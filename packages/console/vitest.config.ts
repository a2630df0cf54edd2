import { svelte } from '@sveltejs/vite-plugin-svelte'
import { defineProject } from 'vitest/config'
import { workspaceAlias, sharedTimeouts } from '../../vitest.shared.js'

export default defineProject({
  // Compiles .svelte files for the component tests (test/components/), which mount them in
  // happy-dom: each opts in with a `// @vitest-environment happy-dom` comment, so every other
  // test still runs in Node as before.
  plugins: [svelte()],
  // Svelte's browser build: its default (server) one cannot mount components.
  resolve: { alias: workspaceAlias, conditions: ['browser'] },
  test: { ...sharedTimeouts, name: 'console' },
})
