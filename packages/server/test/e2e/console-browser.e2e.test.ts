import { readFile } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CONSOLE_TIMEOUT_MS as TIMEOUT_MS, startConsoleHarness } from './console-harness'
import type { ConsoleHarness } from './console-harness'

let harness: ConsoleHarness

beforeAll(async () => {
  harness = await startConsoleHarness()
  await harness.put('/docs/readme.txt', 'read me first\n')
  await harness.put('/docs/sub/deep.txt', 'deep down\n')
  await harness.put('/top.txt', 'at the top\n')
}, TIMEOUT_MS)

afterAll(() => harness?.close(), TIMEOUT_MS)

describe('the console in headless Chromium, served by the built server', () => {
  it(
    'signs in with an API key, browses directories by name and breadcrumbs, downloads a file byte for byte',
    async () => {
      const { page, problems } = await harness.open()
      expect(new URL(page.url()).pathname).toBe('/console/')

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
      expect(stored).not.toContain(harness.rootKey)
      expect(problems).toEqual([])
      await page.close()
    },
    TIMEOUT_MS,
  )

  it(
    'stays signed in across a reload of the tab, and signs out',
    async () => {
      const { page, problems } = await harness.open()
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
      const { page } = await harness.open({ key: 'svc_not-a-real-key' })
      const alert = page.getByRole('alert')
      await expect.poll(() => alert.count(), { timeout: 15_000 }).toBe(1)
      expect((await alert.textContent())?.length).toBeGreaterThan(0)
      expect(await page.getByLabel('API key').count()).toBe(1)
      await page.close()
    },
    TIMEOUT_MS,
  )
})
