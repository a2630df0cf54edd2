import { fileURLToPath } from 'node:url'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startLiveServer } from '../live-server'
import type { LiveServer } from '../live-server'
import { bundlePage } from './bundle-page'
import type { PageBundle } from './bundle-page'
// The repository's one Chromium launcher, shared by the browser tests of two packages.
// eslint-disable-next-line import-x/no-relative-packages
import { launchChromium } from '../../../../scripts/launch-chromium'
import { REPORT_KEY } from './page-report'
import type { PageReport, PageResults } from './page-report'
import { startPageServer } from './page-server'
import type { PageServer } from './page-server'

const TIMEOUT_MS = 60_000
const MIB = 1024 * 1024

let bundle: PageBundle
let pageServer: PageServer | undefined
let server: LiveServer | undefined
let browser: Browser | undefined
let results: PageResults

beforeAll(async () => {
  bundle = await bundlePage(fileURLToPath(new URL('./page.ts', import.meta.url)))
}, TIMEOUT_MS)

afterAll(async () => {
  await browser?.close()
  await pageServer?.close()
  await server?.dispose()
}, TIMEOUT_MS)

describe('the page bundle', () => {
  it('needs no Node.js module and imports nothing from outside', () => {
    const imports = Object.values(bundle.metafile.inputs).flatMap((input) => input.imports)
    expect(imports.filter((i) => i.path.startsWith('node:'))).toEqual([])
    for (const output of Object.values(bundle.metafile.outputs)) expect(output.imports).toEqual([])
    expect(bundle.code).not.toMatch(/(from|import|require)\s*\(?\s*["']node:/)
  })
})

describe('the client in headless Chromium', () => {
  beforeAll(async () => {
    pageServer = await startPageServer(bundle.code)
    server = await startLiveServer({ corsOrigins: [pageServer.origin] })
    browser = await launchChromium()
    const page = await browser.newPage()
    const consoleLines: string[] = []
    page.on('console', (message) => consoleLines.push(`${message.type()}: ${message.text()}`))
    page.on('pageerror', (err) => consoleLines.push(`pageerror: ${err.message}`))

    const query = new URLSearchParams({ server: server.url, key: server.rootApiKey })
    await page.goto(`${pageServer.origin}/?${query}`)
    const report = await page
      .waitForFunction((key) => (globalThis as Record<string, unknown>)[key], REPORT_KEY, {
        timeout: TIMEOUT_MS - 15_000,
      })
      .then((handle) => handle.jsonValue() as Promise<PageReport>)
      .catch((err: unknown) => {
        throw new Error(`the page reported nothing: ${String(err)}\n${consoleLines.join('\n')}`)
      })
    if (!report.ok)
      throw new Error(
        `the page failed at ${report.step}: ${report.error}\n${consoleLines.join('\n')}`,
      )
    results = report.results
  }, TIMEOUT_MS)

  it('writes a file with an API key and reads it back, whole and ranged', () => {
    expect(results.written).toMatchObject({ path: '/docs/hello.txt', size: 22 })
    expect(results.readText).toBe('hello from the browser')
    // The hash and range come from headers the server must expose to other origins.
    expect(results.ranged).toEqual({
      text: 'from the browser',
      contentRange: 'bytes 6-21/22',
      totalSize: 22,
      hash: results.written.hash,
    })
  })

  it('lists a directory', () => {
    expect(results.listed).toEqual(['hello.txt', 'second.txt'])
  })

  it('uploads 1 MiB, then sends only the changed chunks of an edited copy', () => {
    const { upload } = results
    expect(upload.size).toBe(MIB)
    expect(upload.firstSent).toBe(MIB)
    expect(upload.secondSent).toBeGreaterThan(0)
    // The edit touches one or two chunks of at most 256 KiB each.
    expect(upload.secondSent).toBeLessThan(MIB / 2)
    expect(upload.hashesDiffer).toBe(true)
    expect(upload.readBackMatches).toBe(true)
  })

  it('receives entries_created for a write over the event stream', () => {
    expect(results.event.eventType).toBe('entries_created')
    expect(results.event.paths.some((path) => /^\/events\/e\d+\.txt$/.test(path))).toBe(true)
  })

  it('fails a read of a missing file with the ClientError code NOT_FOUND', () => {
    expect(results.missing).toEqual({ isClientError: true, code: 'NOT_FOUND', status: 404 })
  })
})
