import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { Hono } from 'hono'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../app'
import { createLogger } from '../logger'
import type { AppEnv } from '../routing/app-env'
import { disabledAuthenticator } from '../routing/principal'
import { loadConsoleFiles } from './console-files'
import type { ConsoleFiles } from './console-files'
import { CONSOLE_CSP } from './console-headers'
import { mountConsole } from './console-routes'
import type { ConsoleSignIn } from './console-sign-in'

const quiet = createLogger({ level: 'silent' })
const INDEX = `<!doctype html><html><head><script type="module" src="/console/assets/app-1a2b3c.js"></script></head><body>${'<p>console</p>'.repeat(40)}</body></html>`
const SCRIPT = `export const answer = ${JSON.stringify('x'.repeat(2000))}\n`

let dir: string
let files: ConsoleFiles
const appWith = (console?: ConsoleFiles | 'missing') =>
  createApp({
    authenticator: disabledAuthenticator,
    logger: quiet,
    ...(console === undefined ? {} : { console }),
  })

/** The console's routes alone, told what sign-in offers by `signIn`. */
const consoleWith = (signIn?: ConsoleSignIn) => {
  const app = new Hono<AppEnv>()
  mountConsole(app, files, signIn)
  return app
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'svcdb-console-'))
  await mkdir(join(dir, 'assets'))
  await writeFile(join(dir, 'index.html'), INDEX)
  await writeFile(join(dir, 'assets', 'app-1a2b3c.js'), SCRIPT)
  await writeFile(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>')
  files = (await loadConsoleFiles(dir)) as ConsoleFiles
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

describe('the console files', () => {
  it('are read with their types and compressed forms; a directory without index.html is no console', async () => {
    expect([...files.keys()].sort()).toEqual(['assets/app-1a2b3c.js', 'favicon.svg', 'index.html'])
    const script = files.get('assets/app-1a2b3c.js')
    expect(script?.contentType).toBe('text/javascript; charset=utf-8')
    expect(script?.immutable).toBe(true)
    expect(brotliDecompressSync(script?.br as Uint8Array).toString()).toBe(SCRIPT)
    expect(files.get('index.html')?.immutable).toBe(false)
    const empty = await mkdtemp(join(tmpdir(), 'svcdb-console-empty-'))
    expect(await loadConsoleFiles(empty)).toBeUndefined()
    expect(await loadConsoleFiles(join(empty, 'absent'))).toBeUndefined()
    await rm(empty, { recursive: true })
  })
})

describe('serving the console', () => {
  it('sends / and /console to /console/', async () => {
    const app = appWith(files)
    const root = await app.request('/')
    expect(root.status).toBe(302)
    expect(root.headers.get('location')).toBe('/console/')
    const bare = await app.request('/console')
    expect(bare.status).toBe(301)
    expect(bare.headers.get('location')).toBe('/console/')
  })

  it('answers index.html with the CSP, revalidation and an ETag; 304 when it has not changed', async () => {
    const app = appWith(files)
    const res = await app.request('/console/')
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(res.headers.get('content-security-policy')).toBe(CONSOLE_CSP)
    expect(CONSOLE_CSP).toContain("script-src 'self'")
    expect(CONSOLE_CSP).not.toContain('unsafe-inline')
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(res.headers.get('cache-control')).toBe('no-cache')
    expect(await res.text()).toBe(INDEX)
    const etag = res.headers.get('etag') as string
    expect(etag).toMatch(/^"[\w-]+"$/)
    const again = await app.request('/console/', { headers: { 'if-none-match': etag } })
    expect(again.status).toBe(304)
    expect(await again.text()).toBe('')
    const changed = await app.request('/console/', { headers: { 'if-none-match': '"other"' } })
    expect(changed.status).toBe(200)
  })

  it('caches hashed assets for good and compresses as the client accepts', async () => {
    const app = appWith(files)
    const plain = await app.request('/console/assets/app-1a2b3c.js')
    expect(plain.headers.get('cache-control')).toBe('public, max-age=31536000, immutable')
    expect(plain.headers.get('content-encoding')).toBeNull()
    expect(await plain.text()).toBe(SCRIPT)
    const br = await app.request('/console/assets/app-1a2b3c.js', {
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    })
    expect(br.headers.get('content-encoding')).toBe('br')
    expect(br.headers.get('vary')).toBe('Accept-Encoding')
    expect(brotliDecompressSync(Buffer.from(await br.arrayBuffer())).toString()).toBe(SCRIPT)
    const gz = await app.request('/console/assets/app-1a2b3c.js', {
      headers: { 'accept-encoding': 'br;q=0, gzip' },
    })
    expect(gz.headers.get('content-encoding')).toBe('gzip')
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()).toBe(SCRIPT)
    const icon = await app.request('/console/favicon.svg')
    expect(icon.headers.get('content-type')).toBe('image/svg+xml')
    expect(icon.headers.get('cache-control')).toBe('no-cache')
  })

  it('answers index.html for the console’s own routes, a JSON 404 for a missing asset', async () => {
    const app = appWith(files)
    const route = await app.request('/console/files/a/b')
    expect(route.status).toBe(200)
    expect(await route.text()).toBe(INDEX)
    const missing = await app.request('/console/assets/gone-9z8y.js')
    expect(missing.status).toBe(404)
    expect(missing.headers.get('content-type')).toMatch(/^application\/json/)
    expect(await missing.json()).toMatchObject({ error: { code: 'NOT_FOUND' } })
  })

  it('says how to build it when it is on but not built', async () => {
    const res = await appWith('missing').request('/console/')
    expect(res.status).toBe(404)
    const body = (await res.json()) as { error: { code: string; message: string } }
    expect(body.error.code).toBe('NOT_FOUND')
    expect(body.error.message).toMatch(/--no-console/)
  })

  it('is not there at all with --no-console: / and /console/ answer 404', async () => {
    const app = appWith()
    for (const path of ['/', '/console/', '/console/assets/app-1a2b3c.js']) {
      const res = await app.request(path)
      expect(res.status).toBe(404)
      expect(await res.json()).toMatchObject({ error: { code: 'NOT_FOUND' } })
    }
  })
})

describe('the console’s sign-in.json', () => {
  it('says what sign-in offers, afresh on each request, never cached, under the CSP', async () => {
    let magicLink = false
    const app = consoleWith(() => Promise.resolve({ magic_link: magicLink }))
    const before = await app.request('/console/sign-in.json')
    expect(before.status).toBe(200)
    expect(before.headers.get('content-type')).toMatch(/^application\/json/)
    expect(before.headers.get('cache-control')).toBe('no-store')
    expect(before.headers.get('content-security-policy')).toBe(CONSOLE_CSP)
    expect(await before.json()).toEqual({ magic_link: false })
    magicLink = true
    expect(await (await app.request('/console/sign-in.json')).json()).toEqual({ magic_link: true })
  })

  it('offers no magic link when the server was not told (and is not index.html)', async () => {
    const res = await consoleWith().request('/console/sign-in.json')
    expect(await res.text()).toBe('{"magic_link":false}')
    const app = appWith(files)
    expect(await (await app.request('/console/sign-in.json')).json()).toEqual({
      magic_link: false,
    })
  })
})
