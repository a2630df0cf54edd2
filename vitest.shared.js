import { fileURLToPath } from 'node:url'

const packagesDir = fileURLToPath(new URL('./packages/', import.meta.url))

/**
 * Resolves `@svcdb/<pkg>` to `packages/<pkg>/src/index.ts` and `@svcdb/<pkg>/<sub>` to
 * `packages/<pkg>/src/<sub>/index.ts`, so tests run against sources without a build.
 */
export const workspaceAlias = [
  { find: /^@svcdb\/([a-z0-9-]+)$/, replacement: `${packagesDir}$1/src/index.ts` },
  { find: /^@svcdb\/([a-z0-9-]+)\/([a-z-]+)$/, replacement: `${packagesDir}$1/src/$2/index.ts` },
]

/**
 * Tests that need the cluster services (PostgreSQL, S3) of `scripts/dev-services.sh`: left out
 * of `pnpm test`, run by `pnpm test:cluster` (vitest.cluster.config.ts).
 */
export const clusterTests = '**/*.cluster.test.ts'

/**
 * Time a test (30 s) or hook (60 s) may take: vitest's 5 s and 10 s are too tight for tests
 * that start servers and processes while two test files share CI's two cores.
 */
export const sharedTimeouts = { testTimeout: 30_000, hookTimeout: 60_000 }
