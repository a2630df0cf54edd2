import { expect, it } from 'vitest'
import { listPackages, reportPackage } from './api-report.mjs'

// The committed API reports (packages/<pkg>/api/<entry>.api.md) must match the build, so every
// change to a public type shows in review. Reads dist/: the root `pnpm test` builds first.
it.each(listPackages().map((pkg) => [pkg.name, pkg]))(
  '%s: the API reports match the build',
  (_name, pkg) => {
    const results = reportPackage(pkg, { update: false })
    const stale = results.filter((result) => result.changed)
    expect(
      stale.map((result) => `${result.report}\n${result.diff}`).join('\n'),
      'the public API changed: run `pnpm api:update`, commit the reports and add a changeset',
    ).toBe('')
    expect(results.flatMap((result) => result.problems)).toEqual([])
  },
  120_000,
)
