import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DEFAULT_SERVER_CONFIG } from '../../src/config/server-config'
import { createLogger } from '../../src/logger'
import { startServer } from '../../src/start-server'
import type { RunningServer } from '../../src/start-server'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
// The repository's one Chromium launcher, shared by the browser tests of two packages.
// eslint-disable-next-line import-x/no-relative-packages
import { launchChromium } from '../../../../scripts/launch-chromium'

const TIMEOUT_MS = 60_000

let dataDir: string
let server: RunningServer
let rootKey: string
let browser: Browser

/** Stores `text` at `path` through the API, as root. */
async function put(path: string, text: string): Promise<void> {
  const res = await fetch(`${server.url}/files${path}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${rootKey}`, 'content-type': 'text/plain' },
    body: text,
  })
  expect(res.status).toBeLessThan(300)
}

/** A page of the console with every CSP violation and page error it reports collected. */
async function openConsole(): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage({ acceptDownloads: true })
  const problems: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text())
  })
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`))
  await page.goto(`${server.url}/`)
  return { page, problems }
}

async function signIn(page: Page, key: string): Promise<void> {
  await page.getByLabel('API key').fill(key)
  await page.getByRole('button', { name: 'Sign in' }).click()
}

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'svcdb-console-e2e-'))
  server = await startServer(
    { ...DEFAULT_SERVER_CONFIG, port: 0, dataDir },
    { logger: createLogger({ level: 'silent' }) },
  )
  rootKey = server.rootApiKey as string
  await put('/docs/readme.txt', 'read me first\n')
  await put('/docs/sub/deep.txt', 'deep down\n')
  await put('/top.txt', 'at the top\n')
  browser = await launchChromium()
}, TIMEOUT_MS)

afterAll(async () => {
  await browser?.close()
  await server?.close()
  await rm(dataDir, { recursive: true, force: true })
}, TIMEOUT_MS)

describe('the console in headless Chromium, served by the built server', () => {
  it(
    'signs in with an API key, browses directories by name and breadcrumbs, downloads a file byte for byte',
    async () => {
      const { page, problems } = await openConsole()
      expect(new URL(page.url()).pathname).toBe('/console/')
      await signIn(page, rootKey)

      const table = page.getByRole('table')
      await expect.poll(() => table.getByRole('row').count(), { timeout: 15_000 }).toBe(1 + 2) // the header, docs/ and top.txt
      await table.getByRole('link', { name: 'docs', exact: true }).click()
      await expect.poll(() => table.getByText('readme.txt').count(), { timeout: 15_000 }).toBe(1)
      expect(page.url()).toMatch(/#\/files\/docs$/)
      const crumbs = page.getByRole('navigation', { name: 'Breadcrumbs' })
      await expect.poll(() => crumbs.textContent()).toMatch(/docs/)

      const [download] = await Promise.all([
        page.waitForEvent('download'),
        table.getByRole('link', { name: 'Download readme.txt' }).click(),
      ])
      expect(download.suggestedFilename()).toBe('readme.txt')
      expect(await readFile((await download.path()) as string, 'utf8')).toBe('read me first\n')

      await crumbs.getByRole('link', { name: '/', exact: true }).click()
      await expect.poll(() => table.getByText('top.txt').count(), { timeout: 15_000 }).toBe(1)

      // The key is not kept; the refresh token is, for this tab only.
      const stored = await page.evaluate(() =>
        JSON.stringify({ ...sessionStorage, ...localStorage }),
      )
      expect(stored).not.toContain(rootKey)
      expect(problems).toEqual([])
      await page.close()
    },
    TIMEOUT_MS,
  )

  it(
    'stays signed in across a reload of the tab, and signs out',
    async () => {
      const { page, problems } = await openConsole()
      await signIn(page, rootKey)
      await expect.poll(() => page.getByText('top.txt').count(), { timeout: 15_000 }).toBe(1)
      await page.reload()
      await expect.poll(() => page.getByText('top.txt').count(), { timeout: 15_000 }).toBe(1)
      await page.getByRole('button', { name: 'Sign out' }).click()
      await expect.poll(() => page.getByLabel('API key').count(), { timeout: 15_000 }).toBe(1)
      expect(await page.evaluate(() => sessionStorage.length)).toBe(0)
      expect(problems).toEqual([])
      await page.close()
    },
    TIMEOUT_MS,
  )

  it(
    'shows the server’s refusal of a wrong key and stays on sign in',
    async () => {
      const { page } = await openConsole()
      await signIn(page, 'svc_not-a-real-key')
      const alert = page.getByRole('alert')
      await expect.poll(() => alert.count(), { timeout: 15_000 }).toBe(1)
      expect((await alert.textContent())?.length).toBeGreaterThan(0)
      expect(await page.getByLabel('API key').count()).toBe(1)
      await page.close()
    },
    TIMEOUT_MS,
  )
})
