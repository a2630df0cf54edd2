import { readFile } from 'node:fs/promises'
import type { Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CONSOLE_TIMEOUT_MS as TIMEOUT_MS, startConsoleHarness } from './console-harness'
import type { ConsoleHarness } from './console-harness'

const POLL = { timeout: 15_000 }

/** Bytes of every value, in no simple repeating order, over several chunks. */
const DATA = Uint8Array.from({ length: 300_000 }, (_, i) => (i * 31 + (i >> 9) * 7) & 255)

let harness: ConsoleHarness

/** The read-only listing of a fork or snapshot (its caption names the directory). */
const listing = (page: Page): Locator => page.getByRole('table', { name: /^Contents of / })

/** The names the listing shows, sorted. */
const names = async (page: Page): Promise<string[]> =>
  (await listing(page).getByRole('rowheader').allTextContents()).map((n) => n.trim()).sort()

/** The cells of the listing's row of `name`, as text. */
const rowOf = async (page: Page, name: string): Promise<string[]> =>
  (
    await listing(page)
      .getByRole('row')
      .filter({ has: page.getByRole('rowheader', { name, exact: true }) })
      .locator('th, td')
      .allTextContents()
  ).map((cell) => cell.trim())

/** Clicks `Download <name>` in the listing and returns the bytes the browser saved. */
async function download(page: Page, name: string): Promise<{ file: string; bytes: Buffer }> {
  const [saved] = await Promise.all([
    page.waitForEvent('download'),
    listing(page)
      .getByRole('link', { name: `Download ${name}`, exact: true })
      .click(),
  ])
  return { file: saved.suggestedFilename(), bytes: await readFile((await saved.path()) as string) }
}

beforeAll(async () => {
  harness = await startConsoleHarness()
  await harness.put('/shared.txt', 'on main before the fork\n')
  await harness.api('POST', '/versions/forks', { name: 'draft' })
  // Written after the fork: main and the fork each hold files the other lacks.
  await harness.put('/main only/a.txt', 'main only\n')
  await harness.put('/main-after.txt', 'main after the fork\n')
  await harness.put('/fork-top.txt?fork=draft', 'on the fork\n')
  await harness.put('/shared.txt?fork=draft', 'changed on the fork\n')
  await harness.put('/fork-docs/notes.md?fork=draft', '# Notes\n')
  await harness.put('/fork-docs/deep/data.bin?fork=draft', DATA, 'application/octet-stream')
}, TIMEOUT_MS)

afterAll(() => harness?.close(), TIMEOUT_MS)

describe('browsing a fork’s and a snapshot’s files on the Versions screen', () => {
  it(
    'opens a fork from the forks table, opens directories, downloads byte for byte and shows none of main’s files',
    async () => {
      const { page, problems } = await harness.open({ hash: '#/versions' })
      const forks = page.getByRole('table', { name: 'Forks' })
      await expect.poll(() => forks.getByRole('rowheader', { name: 'draft' }).count(), POLL).toBe(1)
      // By keyboard: the Browse link is named for its fork.
      await forks.getByRole('link', { name: 'Browse draft', exact: true }).focus()
      await page.keyboard.press('Enter')
      await expect
        .poll(() => page.getByRole('heading', { name: 'Files of fork draft', level: 1 }).count())
        .toBe(1)
      expect(page.url()).toMatch(/#\/versions\/forks\/draft$/)
      // The version browsed, as the API names the fork's latest.
      const listed = (await (await harness.api('GET', '/versions/forks')).json()) as {
        items: { name: string; version: string }[]
      }
      const version = listed.items.find((fork) => fork.name === 'draft')?.version
      expect(version).toMatch(/^[0-9a-f]{64}$/)
      await expect
        .poll(() => page.locator('.versions-head code').getAttribute('title'), POLL)
        .toBe(version)
      await expect
        .poll(() => names(page), POLL)
        .toEqual(['fork-docs', 'fork-top.txt', 'shared.txt'])
      expect(await rowOf(page, 'fork-top.txt')).toEqual([
        'fork-top.txt',
        'file',
        '12 B',
        expect.stringMatching(/\d/),
        'Download',
      ])
      expect((await rowOf(page, 'fork-docs')).slice(0, 3)).toEqual(['fork-docs', 'directory', '—'])
      // Read-only: nothing that writes is offered.
      expect(await page.getByRole('button', { name: /^(Delete|Rename|Copy)/ }).count()).toBe(0)
      expect(await page.getByLabel('Upload').count()).toBe(0)

      // The fork's own version of a file HEAD holds too.
      expect(await download(page, 'shared.txt')).toEqual({
        file: 'shared.txt',
        bytes: Buffer.from('changed on the fork\n'),
      })

      await listing(page).getByRole('link', { name: 'fork-docs', exact: true }).click()
      await expect.poll(() => names(page), POLL).toEqual(['deep', 'notes.md'])
      expect(page.url()).toMatch(/#\/versions\/forks\/draft\/fork-docs$/)
      await listing(page).getByRole('link', { name: 'deep', exact: true }).click()
      await expect.poll(() => names(page), POLL).toEqual(['data.bin'])
      expect(await rowOf(page, 'data.bin')).toContain('293 KiB')
      const saved = await download(page, 'data.bin')
      expect(saved.file).toBe('data.bin')
      expect(Buffer.compare(saved.bytes, Buffer.from(DATA))).toBe(0)

      const crumbs = page.getByRole('navigation', { name: 'Breadcrumbs' })
      expect((await crumbs.getByRole('link').allTextContents()).map((c) => c.trim())).toEqual([
        '/',
        'fork-docs',
        'deep',
      ])
      expect(await crumbs.locator('[aria-current="page"]').textContent()).toBe('deep')
      await crumbs.getByRole('link', { name: '/', exact: true }).click()
      await expect
        .poll(() => names(page), POLL)
        .toEqual(['fork-docs', 'fork-top.txt', 'shared.txt'])

      // Back and forward walk the directories; a reload stays where it is.
      await page.goBack()
      await expect.poll(() => names(page), POLL).toEqual(['data.bin'])
      await page.goBack()
      await expect.poll(() => names(page), POLL).toEqual(['deep', 'notes.md'])
      await page.goForward()
      await expect.poll(() => names(page), POLL).toEqual(['data.bin'])
      await page.reload()
      await expect.poll(() => names(page), POLL).toEqual(['data.bin'])
      expect(page.url()).toMatch(/#\/versions\/forks\/draft\/fork-docs\/deep$/)

      await page.getByRole('link', { name: 'Back to Versions' }).click()
      await expect.poll(() => page.getByLabel('Fork name').count(), POLL).toBe(1)
      expect(page.url()).toMatch(/#\/versions$/)
      expect(
        await page
          .getByRole('navigation', { name: 'Sections' })
          .locator('[aria-current="page"]')
          .textContent(),
      ).toBe('Versions')

      // Main's listing, the other way round, holds none of the fork's files.
      await page.goto(`${harness.url}/console/#/files`)
      const main = page.getByRole('table', { name: 'Contents of /' })
      await expect.poll(() => main.getByRole('rowheader').count(), POLL).toBe(3)
      expect(
        (await main.getByRole('rowheader').allTextContents()).map((n) => n.trim()).sort(),
      ).toEqual(['main only', 'main-after.txt', 'shared.txt'])
      expect(problems).toEqual([])
      await page.close()
    },
    TIMEOUT_MS,
  )

  it(
    'browses a snapshot as it was taken, not HEAD as it is now',
    async () => {
      await harness.api('POST', '/versions/snapshots', { name: 'v1.0' })
      await harness.put('/main-after.txt', 'rewritten after the snapshot\n')
      await harness.put('/after-snapshot.txt', 'not in the snapshot\n')
      const { page, problems } = await harness.open({ hash: '#/versions' })
      const snapshots = page.getByRole('table', { name: 'Snapshots' })
      await expect.poll(() => snapshots.getByRole('rowheader').count(), POLL).toBe(1)
      await snapshots.getByRole('link', { name: 'Browse v1.0', exact: true }).click()
      await expect
        .poll(() => page.getByRole('heading', { name: 'Files of snapshot v1.0' }).count(), POLL)
        .toBe(1)
      expect(page.url()).toMatch(/#\/versions\/snapshots\/v1\.0$/)
      await expect
        .poll(() => names(page), POLL)
        .toEqual(['main only', 'main-after.txt', 'shared.txt'])
      expect((await download(page, 'main-after.txt')).bytes.toString()).toBe(
        'main after the fork\n',
      )
      await listing(page).getByRole('link', { name: 'main only', exact: true }).click()
      await expect.poll(() => names(page), POLL).toEqual(['a.txt'])
      expect(page.url()).toMatch(/#\/versions\/snapshots\/v1\.0\/main%20only$/)
      expect(problems).toEqual([])
      await page.close()
    },
    TIMEOUT_MS,
  )

  it(
    'pages a large directory of a fork as the API pages it',
    async () => {
      const files = Array.from({ length: 105 }, (_, i) => `f${String(i).padStart(3, '0')}.txt`)
      await harness.api('POST', '/versions/forks', { name: 'wide' })
      for (const name of files) await harness.put(`/many/${name}?fork=wide`, `${name}\n`)
      const { page, problems } = await harness.open({ hash: '#/versions/forks/wide/many' })
      const summary = page.getByText(/^Showing /)
      await expect.poll(() => summary.textContent(), POLL).toBe('Showing 100 of 105 entries')
      expect(await listing(page).getByRole('rowheader').count()).toBe(100)
      await page.getByRole('button', { name: 'Load more' }).click()
      await expect.poll(() => summary.textContent(), POLL).toBe('Showing all 105 entries')
      expect(await names(page)).toEqual(files)
      expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0)
      expect(problems).toEqual([])
      await page.close()
    },
    TIMEOUT_MS,
  )

  it(
    'says so when the fork is not there, and shows the overview for a hash that names nothing',
    async () => {
      const { page, problems } = await harness.open({
        hash: '#/versions/forks/nope',
        ignoreFailedLoads: true,
      })
      await expect.poll(() => page.getByRole('alert').count(), POLL).toBe(1)
      expect(await page.getByRole('alert').textContent()).toMatch(/nope/)
      expect(await page.getByRole('heading', { name: 'Files of fork nope' }).count()).toBe(1)

      // `..` would name another directory than the one shown: the overview instead.
      await page.goto(`${harness.url}/console/#/versions/forks/draft/a/../b`)
      await expect.poll(() => page.getByLabel('Fork name').count(), POLL).toBe(1)
      expect(page.url()).toMatch(/#\/versions$/)
      expect(problems).toEqual([])
      await page.close()
    },
    TIMEOUT_MS,
  )
})
