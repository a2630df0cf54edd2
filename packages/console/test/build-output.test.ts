import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import type { Rolldown } from 'vite'
import { build } from 'vite'
import { beforeAll, describe, expect, it } from 'vitest'

const root = fileURLToPath(new URL('..', import.meta.url))
/** Issue 18: the first load carries at most this much JavaScript, gzipped. */
const FIRST_LOAD_JS_GZIP_LIMIT = 200 * 1024

let files: Map<string, string | Uint8Array>

beforeAll(async () => {
  // Built in memory as `vite build` builds it, with `@svcdb/*` from their built `dist`
  // (`pnpm test` builds first), so what is checked is what ships.
  const output = (await build({
    root,
    configFile: `${root}vite.config.ts`,
    logLevel: 'silent',
    build: { write: false },
  })) as Rolldown.RolldownOutput
  files = new Map(
    output.output.map((item) => [item.fileName, item.type === 'chunk' ? item.code : item.source]),
  )
}, 60_000)

const text = (name: string) => {
  const content = files.get(name)
  return typeof content === 'string' ? content : new TextDecoder().decode(content)
}

describe('the built console', () => {
  it('has index.html and hashed scripts and stylesheets under assets/', () => {
    const names = [...files.keys()].sort()
    expect(names).toContain('index.html')
    const assets = names.filter((name) => name !== 'index.html')
    expect(assets.length).toBeGreaterThan(0)
    for (const name of assets) expect(name).toMatch(/^assets\/[\w-]+-[\w-]{8}\.(js|css)$/)
    expect(assets.some((name) => name.endsWith('.css'))).toBe(true)
  })

  it('keeps index.html free of inline scripts and styles, for a strict CSP', () => {
    const html = text('index.html')
    const scripts = html.match(/<script\b[^>]*>/g) ?? []
    expect(scripts.length).toBeGreaterThan(0)
    for (const tag of scripts) expect(tag).toMatch(/\ssrc="\/console\/assets\//)
    expect(html).not.toMatch(/<script\b[^>]*>[^<]+<\/script>/)
    expect(html).not.toMatch(/<style\b/)
    expect(html).not.toMatch(/\sstyle=/)
    expect(html).not.toMatch(/\son[a-z]+=/)
  })

  it('loads every asset index.html names from under /console/', () => {
    const html = text('index.html')
    const referenced = [...html.matchAll(/(?:src|href)="\/console\/([^"]+)"/g)].map((m) => m[1])
    expect(referenced.length).toBeGreaterThan(0)
    for (const name of referenced) expect(files.has(name ?? '')).toBe(true)
  })

  it('ships at most 200 KB of JavaScript gzipped', () => {
    const js = [...files.keys()].filter((name) => name.endsWith('.js'))
    const gzipped = js.reduce((sum, name) => sum + gzipSync(text(name)).length, 0)
    expect(gzipped).toBeLessThanOrEqual(FIRST_LOAD_JS_GZIP_LIMIT)
  })

  it('brings no eval and no Node.js built-in into the browser', () => {
    for (const name of files.keys()) {
      if (!name.endsWith('.js')) continue
      expect(text(name)).not.toMatch(/\beval\(|new Function\(/)
      expect(text(name)).not.toMatch(/(from|import)\s*\(?\s*["']node:/)
    }
  })
})
