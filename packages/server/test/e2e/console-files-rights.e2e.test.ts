import { readFile } from 'node:fs/promises'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CONSOLE_TIMEOUT_MS as TIMEOUT_MS, startConsoleHarness } from './console-harness'
import type { ConsoleHarness, OpenedConsole } from './console-harness'

const WAIT = { timeout: 15_000 }

let harness: ConsoleHarness
/** A user's key whose rules allow read and list on /ro, everything but configuration on /rw. */
let scopedKey: string

/** The bytes at `path` through the API (as root), or the status when there are none. */
async function get(path: string): Promise<Buffer | number> {
  const res = await fetch(`${harness.url}/files${path}`, {
    headers: { authorization: `Bearer ${harness.rootKey}` },
  })
  if (res.status !== 200) return res.status
  return Buffer.from(await res.arrayBuffer())
}

/** A console signed in with `key` showing `dir`, once its listing is on screen. */
async function openAt(dir: string, key: string): Promise<OpenedConsole> {
  const opened = await harness.open({ hash: `#/files${dir}`, key })
  await expect.poll(() => opened.page.getByRole('table').count(), WAIT).toBe(1)
  return opened
}

/** How many controls of `role` named `name` the page shows. */
function count(page: Page, role: 'button' | 'link', name: string): Promise<number> {
  return page.getByRole(role, { name, exact: true }).count()
}

/** The directory's write controls (call once its permissions are in: see the tests). */
async function toolbar(page: Page) {
  return {
    upload: await page.getByLabel('Upload', { exact: true }).count(),
    mkdir: await count(page, 'button', 'New directory'),
    dropZone: await page.getByRole('group', { name: /^Drop files here/ }).count(),
  }
}

beforeAll(async () => {
  harness = await startConsoleHarness()
  await harness.put('/ro/read-me.txt', 'read only\n')
  await harness.put('/ro/sub/inner.txt', 'inner\n')
  await harness.put('/rw/mine.txt', 'writable\n')
  await harness.put('/hidden/secret.txt', 'not for the key\n')
  const user = (await (
    await harness.api('POST', '/system/users', { username: 'limited', tags: ['readers'] })
  ).json()) as { user_id: string }
  // The group gives the user crudli on everything; the key's rules narrow it down.
  await harness.api('POST', '/system/groups', {
    name: 'readers',
    default_allow: '/**',
    default_deny: '/nothing-denied/**',
    query_field: 'tags',
    query_operator: 'has',
    query_value: 'readers',
  })
  // A self-service key made by root for the user: the kind that carries rules.
  const key = (await (
    await harness.api('POST', '/auth/keys', {
      user_id: user.user_id,
      rules: [{ '/ro/**': '-r--l---' }, { '/rw/**': 'crudl---' }],
    })
  ).json()) as { key: string }
  scopedKey = key.key
}, TIMEOUT_MS)

afterAll(() => harness?.close(), TIMEOUT_MS)

describe('the console’s Files screen shows each user only the writes they may make', () => {
  it(
    'offers no write control in a read-only directory, and still browses, previews and downloads',
    async () => {
      const { page, problems } = await openAt('/ro', scopedKey)
      const table = page.getByRole('table')
      await expect.poll(() => count(page, 'link', 'Download read-me.txt'), WAIT).toBe(1)
      // The directory's permissions come from the server: wait until it has answered.
      await expect
        .poll(() => page.getByRole('group', { name: 'Listing of /ro' }).count(), WAIT)
        .toBe(1)
      expect(await toolbar(page)).toEqual({ upload: 0, mkdir: 0, dropZone: 0 })
      const row = table
        .getByRole('row')
        .filter({ has: page.getByRole('rowheader', { name: 'read-me.txt' }) })
      expect(await row.getByRole('code').textContent()).toBe('-r--l---')
      expect(await count(page, 'button', 'Rename read-me.txt')).toBe(0)
      expect(await count(page, 'button', 'Delete read-me.txt')).toBe(0)
      expect(await count(page, 'button', 'Rename sub')).toBe(0)
      expect(await count(page, 'button', 'Delete sub')).toBe(0)
      // A copy only reads: it may go to a directory the key may write (below).
      expect(await count(page, 'button', 'Copy read-me.txt')).toBe(1)

      await table.getByRole('button', { name: 'read-me.txt', exact: true }).click()
      const preview = page.getByRole('region', { name: 'Preview of read-me.txt' })
      await expect.poll(() => preview.locator('pre').textContent(), WAIT).toBe('read only\n')

      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('link', { name: 'Download read-me.txt' }).click(),
      ])
      expect(await readFile((await download.path()) as string, 'utf8')).toBe('read only\n')

      await page.getByRole('button', { name: 'History of read-me.txt' }).click()
      const history = page.getByRole('region', { name: 'History of read-me.txt' })
      await expect.poll(() => history.getByRole('table').count(), WAIT).toBe(1)
      expect(await history.getByRole('button', { name: /^Restore/ }).count()).toBe(0)

      await table.getByRole('link', { name: 'sub', exact: true }).click()
      await expect.poll(() => count(page, 'link', 'Download inner.txt'), WAIT).toBe(1)
      await expect
        .poll(() => page.getByRole('group', { name: 'Listing of /ro/sub' }).count(), WAIT)
        .toBe(1)
      expect(await toolbar(page)).toEqual({ upload: 0, mkdir: 0, dropZone: 0 })
      expect(problems).toEqual([])
      await page.close()
    },
    TIMEOUT_MS,
  )

  it(
    'offers every write in the directory its key may write, and they work',
    async () => {
      const { page, problems } = await openAt('/rw', scopedKey)
      await expect.poll(() => count(page, 'button', 'New directory'), WAIT).toBe(1)
      expect(await toolbar(page)).toEqual({ upload: 1, mkdir: 1, dropZone: 1 })
      for (const control of ['Rename', 'Copy', 'Delete'])
        expect(await count(page, 'button', `${control} mine.txt`)).toBe(1)

      await page
        .getByLabel('Upload', { exact: true })
        .setInputFiles([
          { name: 'sent.txt', mimeType: 'text/plain', buffer: Buffer.from('sent\n') },
        ])
      await expect.poll(() => count(page, 'button', 'Delete sent.txt'), WAIT).toBe(1)
      expect(await get('/rw/sent.txt')).toEqual(Buffer.from('sent\n'))
      expect(problems).toEqual([])
      await page.close()
    },
    TIMEOUT_MS,
  )

  it(
    'shows at the root only the ways down, with deletes only of what the key may delete',
    async () => {
      const { page, problems } = await openAt('/', scopedKey)
      const table = page.getByRole('table')
      await expect
        .poll(() => table.getByRole('link', { name: 'rw', exact: true }).count(), WAIT)
        .toBe(1)
      await expect
        .poll(() => page.getByRole('group', { name: 'Listing of /' }).count(), WAIT)
        .toBe(1)
      expect(await toolbar(page)).toEqual({ upload: 0, mkdir: 0, dropZone: 0 })
      // Out of the key's scope, /hidden is not listed at all.
      expect(await table.getByRole('rowheader').allTextContents()).toEqual(['ro', 'rw'])
      expect(await count(page, 'button', 'Delete ro')).toBe(0)
      expect(await count(page, 'button', 'Rename ro')).toBe(0)
      expect(await count(page, 'button', 'Delete rw')).toBe(1)
      expect(await count(page, 'button', 'Rename rw')).toBe(1)
      expect(problems).toEqual([])
      await page.close()
    },
    TIMEOUT_MS,
  )

  it(
    'copies a file out of the read-only directory into the writable one',
    async () => {
      const { page, problems } = await openAt('/ro', scopedKey)
      await page.getByRole('button', { name: 'Copy read-me.txt' }).click()
      await page.getByLabel('Copy to').fill('/rw')
      await page.getByRole('button', { name: 'Copy', exact: true }).click()
      await expect
        .poll(
          () =>
            page.getByRole('status').filter({ hasText: 'Copied /ro/read-me.txt into /rw' }).count(),
          WAIT,
        )
        .toBe(1)
      expect(await get('/rw/read-me.txt')).toEqual(Buffer.from('read only\n'))
      expect(problems).toEqual([])
      await page.close()
    },
    TIMEOUT_MS,
  )

  it(
    'shows root every control, restore included',
    async () => {
      const { page, problems } = await openAt('/ro', harness.rootKey)
      await expect.poll(() => count(page, 'button', 'New directory'), WAIT).toBe(1)
      expect(await toolbar(page)).toEqual({ upload: 1, mkdir: 1, dropZone: 1 })
      for (const control of ['Rename', 'Copy', 'Delete'])
        expect(await count(page, 'button', `${control} read-me.txt`)).toBe(1)
      await page.getByRole('button', { name: 'History of read-me.txt' }).click()
      const history = page.getByRole('region', { name: 'History of read-me.txt' })
      await expect
        .poll(() => history.getByRole('button', { name: /^Restore read-me\.txt/ }).count(), WAIT)
        .toBeGreaterThan(0)
      expect(problems).toEqual([])
      await page.close()
    },
    TIMEOUT_MS,
  )
})
