import { readFile } from 'node:fs/promises'
import type { Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CONSOLE_TIMEOUT_MS as TIMEOUT_MS, startConsoleHarness } from './console-harness'
import type { ConsoleHarness, OpenedConsole } from './console-harness'

const POLL = { timeout: 15_000 }

let harness: ConsoleHarness

const api = (method: string, path: string, body?: unknown) => harness.api(method, path, body)
const put = (path: string, text: string) => harness.put(path, text)
const read = async (path: string) => (await api('GET', `/files${path}`)).text()

/** A page of the console at `/console/<hash>`, signed in (as root by default). */
const openConsole = (hash = '', key?: string): Promise<OpenedConsole> =>
  harness.open({ hash, ...(key === undefined ? {} : { key }) })

/** Opens the Versions screen through the top navigation and waits for its lists. */
async function openVersions(page: Page): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Sections' })
    .getByRole('link', { name: 'Versions' })
    .click()
  await expect.poll(() => page.getByLabel('Snapshot name').count(), POLL).toBe(1)
}

/** Confirms the open `<dialog>` with its `action` button. */
async function confirm(page: Page, action: string): Promise<void> {
  const dialog = page.getByRole('dialog')
  await expect.poll(() => dialog.isVisible(), POLL).toBe(true)
  await dialog.getByRole('button', { name: action, exact: true }).click()
  await expect.poll(() => dialog.isVisible(), POLL).toBe(false)
}

const status = (page: Page): Locator => page.locator('.versions > [role="status"]')

/** Reads HEAD again on the screen, as a user who saw the database change would. */
async function refresh(page: Page): Promise<void> {
  const head = await currentHead()
  await page.getByRole('button', { name: 'Refresh' }).click()
  await expect
    .poll(() => page.locator('.versions-head code').getAttribute('title'), POLL)
    .toBe(head)
}

/** HEAD's hash: the root directory's, as the API states it. */
async function currentHead(): Promise<string> {
  const root = (await (await api('GET', '/files/?stat=true')).json()) as { hash: string }
  return root.hash
}

/** The API's own diff from `from` to `to`, every page, one `change type path` line per entry. */
async function apiChanges(from: string, to = 'HEAD'): Promise<string[]> {
  const lines: string[] = []
  let cursor: string | null = null
  do {
    const query = new URLSearchParams({ from, to, ...(cursor === null ? {} : { cursor }) })
    const page = (await (await api('GET', `/versions/changes?${query.toString()}`)).json()) as {
      items: { change: string; type: string; path: string }[]
      cursor: string | null
    }
    lines.push(...page.items.map((c) => `${c.change} ${c.type} ${c.path}`))
    cursor = page.cursor
  } while (cursor !== null)
  return lines
}

/** The rows of the Changes table as `change type path` lines. */
const changeRows = (page: Page): Promise<string[]> =>
  page
    .getByRole('table', { name: 'Changes' })
    .locator('tbody tr')
    .evaluateAll((trs) =>
      trs.map((tr) =>
        [...(tr as HTMLTableRowElement).cells].map((td) => td.textContent?.trim()).join(' '),
      ),
    )

/** A snapshot's version, as the API lists it. */
async function snapshotVersion(name: string): Promise<string> {
  const listed = (await (await api('GET', '/versions/snapshots')).json()) as {
    items: { name: string; version: string }[]
  }
  return listed.items.find((s) => s.name === name)?.version as string
}

beforeAll(async () => {
  harness = await startConsoleHarness()
  await put('/docs/readme.txt', 'read me first\n')
  await put('/top.txt', 'at the top\n')
}, TIMEOUT_MS)

afterAll(() => harness?.close(), TIMEOUT_MS)

describe('the console’s Versions screen in headless Chromium', () => {
  it(
    'switches between Files and Versions by the top navigation, and back',
    async () => {
      const { page, problems } = await openConsole()
      const sections = page.getByRole('navigation', { name: 'Sections' })
      const current = () => sections.locator('[aria-current="page"]').textContent()
      await expect
        .poll(() => page.getByRole('link', { name: 'docs', exact: true }).count(), POLL)
        .toBe(1)
      expect(await current()).toBe('Files')

      await page.getByRole('link', { name: 'docs', exact: true }).click()
      await expect.poll(() => page.getByText('readme.txt').count(), POLL).toBe(1)
      await openVersions(page)
      expect(page.url()).toMatch(/#\/versions$/)
      expect(await current()).toBe('Versions')
      expect(await page.getByRole('heading', { name: 'Versions', level: 1 }).count()).toBe(1)

      // Back returns to the directory left, with its own URL.
      await page.goBack()
      await expect.poll(() => page.getByText('readme.txt').count(), POLL).toBe(1)
      expect(page.url()).toMatch(/#\/files\/docs$/)
      expect(await current()).toBe('Files')
      await page.goForward()
      await expect.poll(() => page.getByLabel('Snapshot name').count(), POLL).toBe(1)
      expect(page.url()).toMatch(/#\/versions$/)

      await sections.getByRole('link', { name: 'Files' }).click()
      await expect.poll(() => page.getByText('top.txt').count(), POLL).toBe(1)
      expect(await current()).toBe('Files')

      // A reload keeps the section.
      await openVersions(page)
      await page.reload()
      await expect.poll(() => page.getByLabel('Snapshot name').count(), POLL).toBe(1)
      expect(problems).toEqual([])
      await page.close()
    },
    TIMEOUT_MS,
  )

  it(
    'creates a snapshot, restores it over a changed file with expect_head, and refuses when HEAD moved',
    async () => {
      await put('/notes.txt', 'first draft\n')
      const { page, problems } = await openConsole('#/versions')
      await expect.poll(() => page.getByLabel('Snapshot name').count(), POLL).toBe(1)
      await page.getByLabel('Snapshot name').fill('before-edit')
      await page.getByRole('button', { name: 'Create snapshot' }).click()
      const snapshots = page.getByRole('table', { name: 'Snapshots' })
      await expect
        .poll(() => snapshots.getByRole('rowheader', { name: 'before-edit' }).count(), POLL)
        .toBe(1)
      const listed = (await (await api('GET', '/versions/snapshots')).json()) as {
        items: { name: string; version: string }[]
      }
      const version = listed.items.find((s) => s.name === 'before-edit')?.version as string
      // The hash shows shortened, whole in its title.
      expect(await snapshots.locator(`code[title="${version}"]`).textContent()).toBe(
        version.slice(0, 12),
      )

      await put('/notes.txt', 'second draft\n')
      await refresh(page)
      await expect.poll(() => status(page).textContent(), POLL).toBe('')

      // HEAD moves once more behind the screen's back: the restore is refused, nothing changes.
      await put('/notes.txt', 'third draft\n')
      await page.getByRole('button', { name: 'Restore before-edit', exact: true }).click()
      await confirm(page, 'Restore')
      const alert = page.getByRole('alert')
      await expect.poll(() => alert.count(), POLL).toBe(1)
      expect(await alert.textContent()).toMatch(/HEAD moved since this screen read it/)
      expect(await read('/notes.txt')).toBe('third draft\n')

      // Cancel leaves everything as it is.
      await refresh(page)
      await page.getByRole('button', { name: 'Restore before-edit', exact: true }).click()
      await confirm(page, 'Cancel')
      expect(await read('/notes.txt')).toBe('third draft\n')

      await page.getByRole('button', { name: 'Restore before-edit', exact: true }).click()
      await confirm(page, 'Restore')
      await expect.poll(() => status(page).textContent(), POLL).toMatch(/restored/)
      expect(await read('/notes.txt')).toBe('first draft\n')
      expect(await page.getByRole('alert').count()).toBe(0)
      // The restore is in the HEAD log.
      const log = page.getByRole('table', { name: 'HEAD log' })
      await expect.poll(() => log.getByText('snapshot restore').count(), POLL).toBe(1)

      // By keyboard: Enter opens the dialog, focus is inside it, Escape closes it untouched.
      await page.getByRole('button', { name: 'Delete before-edit', exact: true }).focus()
      await page.keyboard.press('Enter')
      const dialog = page.getByRole('dialog')
      await expect.poll(() => dialog.isVisible(), POLL).toBe(true)
      expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true)
      await page.keyboard.press('Escape')
      await expect.poll(() => dialog.isVisible(), POLL).toBe(false)
      expect(await page.getByRole('rowheader', { name: 'before-edit' }).count()).toBe(1)

      await page.getByRole('button', { name: 'Delete before-edit', exact: true }).click()
      await confirm(page, 'Delete')
      await expect
        .poll(() => page.getByRole('rowheader', { name: 'before-edit' }).count(), POLL)
        .toBe(0)
      const after = (await (await api('GET', '/versions/snapshots')).json()) as { items: unknown[] }
      expect(after.items).toEqual([])
      expect(problems.filter((p) => !p.includes('409'))).toEqual([])
      await page.close()
    },
    TIMEOUT_MS,
  )

  it(
    'creates a fork and promotes it to HEAD',
    async () => {
      const { page, problems } = await openConsole('#/versions')
      await expect.poll(() => page.getByLabel('Fork name').count(), POLL).toBe(1)
      await page.getByLabel('Fork name').fill('draft')
      await page.getByRole('button', { name: 'Create fork' }).click()
      const forks = page.getByRole('table', { name: 'Forks' })
      await expect.poll(() => forks.getByRole('rowheader', { name: 'draft' }).count(), POLL).toBe(1)

      await put('/fork-only.txt?fork=draft', 'written on the fork\n')
      expect(
        (
          await fetch(`${harness.url}/files/fork-only.txt`, {
            headers: { authorization: `Bearer ${harness.rootKey}` },
          })
        ).status,
      ).toBe(404)
      await refresh(page)
      await page.getByRole('button', { name: 'Promote draft', exact: true }).click()
      await confirm(page, 'Promote')
      await expect.poll(() => status(page).textContent(), POLL).toMatch(/promoted/)
      expect(await read('/fork-only.txt')).toBe('written on the fork\n')

      await page.getByRole('button', { name: 'Abandon draft', exact: true }).click()
      await confirm(page, 'Abandon')
      await expect.poll(() => forks.count(), POLL).toBe(0)
      expect(problems).toEqual([])
      await page.close()
    },
    TIMEOUT_MS,
  )

  it(
    'lists what was added, modified and deleted between a snapshot and HEAD, as the API does',
    async () => {
      await api('POST', '/versions/snapshots', { name: 'base' })
      await put('/added.txt', 'new here\n')
      await put('/top.txt', 'still at the top, changed\n')
      await api('DELETE', '/files/notes.txt')
      const base = await snapshotVersion('base')
      const expected = await apiChanges(base)
      expect(expected).toEqual(
        expect.arrayContaining([
          'added file /added.txt',
          'modified file /top.txt',
          'deleted file /notes.txt',
        ]),
      )
      const { page, problems } = await openConsole('#/versions')
      await expect
        .poll(() => page.getByLabel('Compare from', { exact: true }).count(), POLL)
        .toBe(1)
      await page.getByLabel('Compare from', { exact: true }).selectOption(base)
      await page.getByLabel('Compare to', { exact: true }).selectOption('HEAD')
      await page.getByRole('button', { name: 'Compare', exact: true }).click()
      const changes = page.getByRole('table', { name: 'Changes' })
      await expect.poll(() => changes.getByRole('row').count(), POLL).toBe(1 + expected.length)
      expect(await changeRows(page)).toEqual(expected)
      expect(problems).toEqual([])
      await page.close()
    },
    TIMEOUT_MS,
  )

  it(
    'pages one comparison’s changes, and starts over when From or To changes',
    async () => {
      await put('/paging/seed.txt', 'seed\n')
      await api('POST', '/versions/snapshots', { name: 'paging' })
      for (const name of ['a', 'b', 'c']) await put(`/paging/${name}.txt`, `${name}\n`)
      const start = await snapshotVersion('paging')
      const expected = await apiChanges(start)
      expect(expected.length).toBeGreaterThan(2)

      // Pages of 2 (the screen asks for 500): the real server answers, with its real cursors.
      // A request can be held until `release` is called, to change the pair while it is away.
      let hold = false
      let release = (): void => undefined
      let held = (): void => undefined
      const heldRequest = new Promise<void>((resolve) => (held = resolve))
      const { page, problems } = await harness.open({
        hash: '#/versions',
        prepare: (p) =>
          p.route(
            (url) => url.pathname === '/versions/changes',
            async (route) => {
              const url = new URL(route.request().url())
              url.searchParams.set('limit', '2')
              if (hold) {
                await new Promise<void>((resolve) => {
                  release = resolve
                  held()
                })
              }
              await route.continue({ url: url.toString() })
            },
          ),
      })
      const from = page.getByLabel('Compare from', { exact: true })
      const to = page.getByLabel('Compare to', { exact: true })
      const compare = page.getByRole('button', { name: 'Compare', exact: true })
      const more = page.getByRole('button', { name: 'More changes' })
      const table = page.getByRole('table', { name: 'Changes' })
      /** Clicks "More changes" until every change is listed, checking each page. */
      async function readAll(): Promise<void> {
        for (let shown = 2; shown < expected.length; shown += 2) {
          await more.click()
          const next = Math.min(shown + 2, expected.length)
          await expect.poll(() => changeRows(page), POLL).toEqual(expected.slice(0, next))
        }
        expect(await more.count()).toBe(0)
      }

      await expect.poll(() => from.count(), POLL).toBe(1)
      await from.selectOption(start)
      await to.selectOption('HEAD')
      await compare.click()
      await expect.poll(() => changeRows(page), POLL).toEqual(expected.slice(0, 2))
      await readAll()

      // Another pair: the first one's rows and cursor go at once; Compare reads the new pair.
      await compare.click()
      await expect.poll(() => changeRows(page), POLL).toEqual(expected.slice(0, 2))
      await to.selectOption(start)
      await expect.poll(() => table.count(), POLL).toBe(0)
      expect(await more.count()).toBe(0)
      await compare.click()
      await expect
        .poll(() => page.getByRole('status').filter({ hasText: 'No differences' }).count(), POLL)
        .toBe(1)

      // A next page that arrives after the pair changed is dropped, not appended.
      await to.selectOption('HEAD')
      await compare.click()
      await expect.poll(() => changeRows(page), POLL).toEqual(expected.slice(0, 2))
      hold = true
      await more.click()
      await heldRequest
      hold = false
      await to.selectOption(start)
      await expect.poll(() => table.count(), POLL).toBe(0)
      release()
      // Compare is enabled again once the held page has been dealt with.
      await expect.poll(() => compare.isEnabled(), POLL).toBe(true)
      expect(await table.count()).toBe(0)
      await to.selectOption('HEAD')
      await expect.poll(() => changeRows(page), POLL).toEqual(expected.slice(0, 2))
      await readAll()
      expect(problems).toEqual([])
      await page.close()
    },
    TIMEOUT_MS,
  )

  it(
    'compares from any version by its hash, such as one from the HEAD log',
    async () => {
      const log = (await (await api('GET', '/versions/log')).json()) as {
        items: { head: string; previous: string }[]
      }
      // HEAD before the first move the log records (the snapshot restore): no name holds it.
      const hash = log.items.at(-1)?.previous as string
      expect(hash).toMatch(/^[0-9a-f]{64}$/)
      const expected = await apiChanges(hash)
      expect(expected.length).toBeGreaterThan(0)
      const { page, problems } = await openConsole('#/versions')
      const field = page.getByLabel('Version hash', { exact: true })
      const use = page.getByRole('button', { name: 'Compare from hash' })
      const from = page.getByLabel('Compare from', { exact: true })
      await expect.poll(() => field.count(), POLL).toBe(1)
      expect(await from.locator(`option[value="${hash}"]`).count()).toBe(0)

      // Not the API's hash format: said, and nothing offered.
      await field.fill(hash.slice(1))
      await use.click()
      const alert = page.getByRole('alert')
      await expect.poll(() => alert.textContent(), POLL).toMatch(/64 hexadecimal digits/)
      expect(await field.getAttribute('aria-invalid')).toBe('true')
      expect(await from.locator(`option[value="${hash}"]`).count()).toBe(0)

      // Pasted in capitals, by keyboard: offered in both lists, chosen as From.
      await field.fill(hash.toUpperCase())
      await field.press('Enter')
      await expect.poll(() => from.inputValue(), POLL).toBe(hash)
      expect(await alert.count()).toBe(0)
      expect(await field.getAttribute('aria-invalid')).toBe('false')
      expect(await from.locator(`option[value="${hash}"]`).textContent()).toBe(
        `version ${hash.slice(0, 12)}`,
      )
      const to = page.getByLabel('Compare to', { exact: true })
      expect(await to.locator(`option[value="${hash}"]`).count()).toBe(1)
      await to.selectOption('HEAD')
      await page.getByRole('button', { name: 'Compare', exact: true }).click()
      await expect.poll(() => changeRows(page), POLL).toEqual(expected)
      expect(problems).toEqual([])
      await page.close()
    },
    TIMEOUT_MS,
  )

  it(
    'exports HEAD as an archive and imports it back as HEAD',
    async () => {
      await put('/kept.txt', 'kept in the archive\n')
      const exported = await currentHead()
      const { page, problems } = await openConsole('#/versions')
      await expect.poll(() => page.getByLabel('Version to export').count(), POLL).toBe(1)
      await page.getByLabel('Version to export').selectOption('HEAD')
      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Export archive' }).click(),
      ])
      expect(download.suggestedFilename()).toBe(`export-${exported.slice(0, 12)}.svcdb`)
      const archive = (await download.path()) as string
      expect((await readFile(archive)).length).toBeGreaterThan(0)

      await api('DELETE', '/files/kept.txt')
      await page.getByLabel('Archive to import').setInputFiles(archive)
      await page.getByLabel('Make it HEAD').check()
      await page.getByRole('button', { name: 'Import archive' }).click()
      await expect.poll(() => status(page).textContent(), POLL).toMatch(/imported .*it is now HEAD/)
      expect(await read('/kept.txt')).toBe('kept in the archive\n')
      expect(await currentHead()).toBe(exported)
      const log = page.getByRole('table', { name: 'HEAD log' })
      await expect.poll(() => log.getByText('import', { exact: true }).count(), POLL).toBe(1)
      expect(problems).toEqual([])
      await page.close()
    },
    TIMEOUT_MS,
  )

  it(
    'shows a reader the snapshots, forks and HEAD log, but none of the actions they may not take',
    async () => {
      // Listing snapshots and forks takes list on / (the inventory); the HEAD log and HEAD
      // itself take read on /. The user holds both by a share of /, and their key's rules
      // ask for no more.
      const user = (await (
        await api('POST', '/system/users', { username: 'versions-reader' })
      ).json()) as { user_id: string }
      await api('POST', '/files/share', {
        paths: ['/'],
        users: [user.user_id],
        permissions: '-r--l---',
      })
      const own = (await (
        await api('POST', '/auth/keys/admin', { user_id: user.user_id })
      ).json()) as { api_key: string }
      const created = await fetch(`${harness.url}/auth/keys`, {
        method: 'POST',
        headers: { authorization: `Bearer ${own.api_key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ rules: [{ '/**': '-r--l---' }] }),
      })
      expect(created.status).toBe(201)
      const { key } = (await created.json()) as { key: string }
      await api('POST', '/versions/snapshots', { name: 'for-reader' })
      await api('POST', '/versions/forks', { name: 'reader-fork' })
      const listed = await fetch(`${harness.url}/versions/snapshots`, {
        headers: { authorization: `Bearer ${key}` },
      })
      expect(listed.status).toBe(200)

      const { page, problems } = await openConsole('#/versions', key)
      const snapshots = page.getByRole('table', { name: 'Snapshots' })
      await expect
        .poll(() => snapshots.getByRole('rowheader', { name: 'for-reader' }).count(), POLL)
        .toBe(1)
      const forks = page.getByRole('table', { name: 'Forks' })
      expect(await forks.getByRole('rowheader', { name: 'reader-fork' }).count()).toBe(1)
      const log = page.getByRole('table', { name: 'HEAD log' })
      await expect.poll(() => log.getByText('snapshot restore').count(), POLL).toBe(1)
      // What they may do is there: browse, compare.
      expect(await page.getByRole('link', { name: 'Browse for-reader' }).count()).toBe(1)
      expect(await page.getByRole('button', { name: 'Compare', exact: true }).count()).toBe(1)
      // What they may not: restore and promote are root's, delete and create need d and c on /.
      for (const name of [/^Restore/, /^Delete/, /^Promote/, /^Abandon/, /^Create/, /archive/]) {
        expect(await page.getByRole('button', { name }).count(), String(name)).toBe(0)
      }
      expect(await page.getByLabel('Snapshot name').count()).toBe(0)
      expect(await page.getByRole('heading', { name: 'Archives' }).count()).toBe(0)
      expect(await page.getByRole('alert').count()).toBe(0)
      expect(problems).toEqual([])
      await page.close()
    },
    TIMEOUT_MS,
  )

  it(
    'shows a user who may not list / the server’s refusal, and no root actions',
    async () => {
      const user = (await (
        await api('POST', '/system/users', { username: 'versions-viewer' })
      ).json()) as { user_id: string }
      const key = (await (
        await api('POST', '/auth/keys/admin', { user_id: user.user_id })
      ).json()) as {
        api_key: string
      }
      const { page } = await openConsole('#/versions', key.api_key)
      // The server's own words, in two alerts: the overview's, from whichever of its reads is
      // refused first (HEAD needs read on /, the snapshot and fork lists list on /), and the
      // HEAD log's (read on /).
      const alerts = page.getByRole('alert')
      await expect.poll(() => alerts.count(), POLL).toBe(2)
      for (const text of await alerts.allTextContents()) {
        expect(text).toMatch(/read is not permitted on \/|needs list permission on \//)
      }
      expect(await page.getByRole('table', { name: 'Snapshots' }).count()).toBe(0)
      expect(await page.getByRole('heading', { name: 'Versions', level: 1 }).count()).toBe(1)
      expect(await page.getByRole('button', { name: 'Export archive' }).count()).toBe(0)
      expect(await page.getByRole('heading', { name: 'Archives' }).count()).toBe(0)
      expect(await page.getByRole('button', { name: /^Restore/ }).count()).toBe(0)
      await page.close()
    },
    TIMEOUT_MS,
  )
})
