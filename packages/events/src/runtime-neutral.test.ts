import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { expect, it } from 'vitest'

const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sources(join(dir, entry.name))
      : entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')
        ? [join(dir, entry.name)]
        : [],
  )

it('imports no Node built-ins outside tests, so every entry runs in browsers too', () => {
  const root = import.meta.dirname
  const files = sources(root)
  expect(files.length).toBeGreaterThan(20)
  for (const file of files) {
    const text = readFileSync(file, 'utf8')
    const imports = [...text.matchAll(/from '([^']+)'/g)].map((m) => m[1] as string)
    for (const spec of imports)
      expect(spec, relative(root, file)).toMatch(/^(\.\.?\/|valibot$|vitest$)/)
    expect(text, relative(root, file)).not.toMatch(/\b(process|Buffer|require)\s*[.(]/)
  }
})
