import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import * as api from './index'

it('exports exactly the public surface of @svcdb/events/sse', () => {
  expect(Object.keys(api).sort()).toMatchInlineSnapshot(`
    [
      "createSseDecoder",
      "decodeSseStream",
      "encodeSseComment",
      "encodeSseMessage",
    ]
  `)
})

it('imports nothing from Node, so it runs in browsers', () => {
  const dir = import.meta.dirname
  const sources = readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
  expect(sources.length).toBeGreaterThan(3)
  for (const file of sources) {
    const text = readFileSync(join(dir, file), 'utf8')
    expect(text, file).not.toMatch(/from ['"](node:|buffer|fs|path|stream|crypto)/)
    expect(text, file).not.toMatch(/\b(process|Buffer|require)\b/)
    // Only imports within this folder.
    for (const [, spec] of text.matchAll(/from '([^']+)'/g))
      expect(spec, file).toMatch(/^\.\/[a-z-]+$/)
  }
})
