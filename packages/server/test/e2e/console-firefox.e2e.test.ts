import { randomBytes } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CONSOLE_TIMEOUT_MS as TIMEOUT_MS, startConsoleHarness } from './console-harness'
import type { ConsoleHarness } from './console-harness'

// The other console tests run in Chromium; this one walks the main paths again in Firefox.

const WAIT = { timeout: 15_000 }

let harness: ConsoleHarness

/** How many rows of the listing are named `name`. */
const rowsNamed = (page: Page, name: string) =>
  page.getByRole('table').getByRole('rowheader', { name, exact: true }).count()

/** What has the keyboard focus, as `tag#id "text"`. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const active = document.activeElement
    return active === null
      ? 'nothing'
      : `${active.tagName.toLowerCase()}#${active.id} "${active.textContent ?? ''}"`
  })

beforeAll(async () => {
  harness = await startConsoleHarness({}, { browser: 'firefox' })
  await harness.put('/docs/readme.txt', 'read me first\n')
  await harness.put('/top.txt', 'at the top\n')
}, TIMEOUT_MS)

afterAll(() => harness?.close(), TIMEOUT_MS)

describe('the console in headless Firefox', () => {
  it(
    'signs in by keyboard alone: Tab reaches the API key field, then the button, Enter submits',
    async () => {
      const { page, problems } = await harness.open({ key: null })
      await expect.poll(() => page.getByLabel('API key').count(), WAIT).toBe(1)
      await page.keyboard.press('Tab')
      expect(await focused(page)).toBe('input#api-key ""')
      await page.keyboard.type(harness.rootKey)
      await page.keyboard.press('Tab')
      expect(await focused(page)).toBe('button# "Sign in"')
      await page.keyboard.press('Shift+Tab')
      expect(await focused(page)).toBe('input#api-key ""')
      await page.keyboard.press('Enter')
      await expect.poll(() => rowsNamed(page, 'top.txt'), WAIT).toBe(1)
      expect(problems).toEqual([])
      await page.close()
    },
    TIMEOUT_MS,
  )

  it(
    'lists files, opens a directory by its name and previews a text file',
    async () => {
      const { page, problems } = await harness.open()
      const table = page.getByRole('table')
      await expect.poll(() => table.getByRole('row').count(), WAIT).toBe(1 + 2) // the header, docs/ and top.txt
      await table.getByRole('link', { name: 'docs', exact: true }).click()
      await expect.poll(() => rowsNamed(page, 'readme.txt'), WAIT).toBe(1)
      expect(page.url()).toMatch(/#\/files\/docs$/)

      await table.getByRole('button', { name: 'readme.txt', exact: true }).click()
      const preview = page.getByRole('region', { name: 'Preview of readme.txt' })
      await expect.poll(() => preview.locator('pre').textContent(), WAIT).toBe('read me first\n')
      expect(problems).toEqual([])
      await page.close()
    },
    TIMEOUT_MS,
  )

  it(
    'uploads a file through the Upload input and downloads it byte for byte',
    async () => {
      const { page, problems } = await harness.open({ hash: '#/files/docs' })
      const table = page.getByRole('table')
      await expect.poll(() => rowsNamed(page, 'readme.txt'), WAIT).toBe(1)
      const bytes = randomBytes(200 * 1024) // more than one chunk
      await page
        .getByLabel('Upload', { exact: true })
        .setInputFiles({ name: 'blob.bin', mimeType: 'application/octet-stream', buffer: bytes })
      await expect
        .poll(() => page.getByRole('status').filter({ hasText: 'Uploaded 1 file' }).count(), WAIT)
        .toBe(1)
      await expect.poll(() => rowsNamed(page, 'blob.bin'), WAIT).toBe(1)
      const stored = await harness.api('GET', '/files/docs/blob.bin')
      expect(Buffer.compare(Buffer.from(await stored.arrayBuffer()), bytes)).toBe(0)

      const [download] = await Promise.all([
        page.waitForEvent('download'),
        table.getByRole('link', { name: 'Download blob.bin' }).click(),
      ])
      expect(download.suggestedFilename()).toBe('blob.bin')
      expect(Buffer.compare(await readFile((await download.path()) as string), bytes)).toBe(0)
      // A CSP refusing the WebAssembly the client's chunker tries first would show here.
      expect(problems).toEqual([])
      await page.close()
    },
    TIMEOUT_MS,
  )

  it(
    'opens Versions from the top navigation and creates a snapshot',
    async () => {
      const { page, problems } = await harness.open()
      await expect.poll(() => rowsNamed(page, 'top.txt'), WAIT).toBe(1)
      await page
        .getByRole('navigation', { name: 'Sections' })
        .getByRole('link', { name: 'Versions' })
        .click()
      await expect.poll(() => page.getByLabel('Snapshot name').count(), WAIT).toBe(1)
      expect(page.url()).toMatch(/#\/versions$/)

      await page.getByLabel('Snapshot name').fill('in-firefox')
      await page.getByRole('button', { name: 'Create snapshot' }).click()
      const snapshots = page.getByRole('table', { name: 'Snapshots' })
      await expect
        .poll(() => snapshots.getByRole('rowheader', { name: 'in-firefox' }).count(), WAIT)
        .toBe(1)
      const listed = (await (await harness.api('GET', '/versions/snapshots')).json()) as {
        items: { name: string }[]
      }
      expect(listed.items.map((snapshot) => snapshot.name)).toEqual(['in-firefox'])
      expect(problems).toEqual([])
      await page.close()
    },
    TIMEOUT_MS,
  )
})
