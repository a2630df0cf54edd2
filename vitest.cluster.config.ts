import { defineConfig } from 'vitest/config'
import { clusterTests, workspaceAlias } from './vitest.shared.js'

/**
 * `pnpm test:cluster`: the tests that need PostgreSQL and S3 (started by
 * `scripts/dev-services.sh up`, whose `DATABASE_URL`, `S3_*` and `AWS_*` lines the caller
 * exports). Each suite makes its own database schema and bucket, so runs never collide.
 */
export default defineConfig({
  resolve: { alias: workspaceAlias },
  test: {
    name: 'cluster',
    include: [`packages/*/${clusterTests.replace('**/', '{src,test}/**/')}`],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // These files mostly wait on PostgreSQL, RGW and server processes (the cron test on the
    // clock): two at a time even on two cores, where the default would run one.
    maxWorkers: 2,
  },
})
