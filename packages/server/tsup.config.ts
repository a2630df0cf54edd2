import { access, cp } from 'node:fs/promises'
import { resolve } from 'node:path'
import { defineConfig } from 'tsup'

// The web console's build (`@svcdb/console`, built first: see turbo.json) ships inside this
// package, served at /console/ from `dist/console/`.
const consoleDist = resolve('..', 'console', 'dist')

async function copyConsole(): Promise<void> {
  await access(resolve(consoleDist, 'index.html')).catch(() => {
    throw new Error(`the console is not built (no ${consoleDist}/index.html): run pnpm build`)
  })
  await cp(consoleDist, resolve('dist', 'console'), { recursive: true })
}

export default defineConfig({
  entry: ['src/index.ts', 'src/bin.ts'],
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  dts: true,
  sourcemap: true,
  clean: true,
  onSuccess: copyConsole,
})
