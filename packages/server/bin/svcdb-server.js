#!/usr/bin/env node
// The command's entry point. It exists before the first build, so installing a checkout links
// it without a warning; the code itself is built into dist/.
try {
  await import('../dist/bin.js')
} catch (err) {
  if (err?.code === 'ERR_MODULE_NOT_FOUND' && String(err.message).includes('dist/bin.js')) {
    process.stderr.write('svcdb-server: not built yet; run `pnpm build` (or `pnpm start`)\n')
    process.exit(1)
  }
  throw err
}
