import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CONSOLE_TIMEOUT_MS as TIMEOUT_MS, startConsoleHarness } from './console-harness'
import type { ConsoleHarness, OpenedConsole, OpenOptions } from './console-harness'

let harness: ConsoleHarness

beforeAll(async () => {
  harness = await startConsoleHarness()
  await harness.put('/docs/readme.txt', 'read me first\n')
  await harness.put('/top.txt', 'at the top\n')
}, TIMEOUT_MS)

afterAll(() => harness?.close(), TIMEOUT_MS)

/** The status of reading `path` with `key`. */
async function readStatus(path: string, key: string): Promise<number> {
  const res = await fetch(`${harness.url}/files${path}`, {
    headers: { authorization: `Bearer ${key}` },
  })
  await res.arrayBuffer()
  return res.status
}

/** Root's API call (JSON in and out). */
async function api(method: string, path: string, body?: unknown): Promise<unknown> {
  return (await harness.api(method, path, body)).json()
}

/** The console signed in as root, on the Identity screen; `prepare` as in `harness.open`. */
async function openIdentity(prepare?: OpenOptions['prepare']): Promise<OpenedConsole> {
  const opened = await harness.open(prepare === undefined ? {} : { prepare })
  await expect
    .poll(() => opened.page.getByRole('button', { name: 'Sign out' }).count(), { timeout: 15_000 })
    .toBe(1)
  await opened.page.goto(`${harness.url}/console/#/identity`)
  await expect
    .poll(() => opened.page.getByRole('heading', { name: 'Identity' }).count(), { timeout: 15_000 })
    .toBe(1)
  return opened
}

describe('the console’s Identity section in headless Chromium', () => {
  it(
    'creates a key with a rule for a user, shows it once, and revokes it: the API obeys both',
    async () => {
      const user = (await api('POST', '/system/users', { username: 'keyholder' })) as {
        user_id: string
      }
      // Rules only restrict what the user has: give the user /docs first.
      await api('POST', '/files/share', {
        paths: ['/docs'],
        users: [user.user_id],
        permissions: '-r--l---',
      })
      // The clipboard as a user who allows it has it, so that Copy must really write the key.
      const { page, problems } = await openIdentity((page) =>
        page
          .context()
          .grantPermissions(['clipboard-read', 'clipboard-write'], { origin: harness.url }),
      )
      const form = page.getByRole('form', { name: 'Create an API key' })
      await expect
        .poll(() => form.getByRole('option', { name: 'keyholder' }).count(), { timeout: 15_000 })
        .toBe(1)
      await form.getByLabel('User').selectOption({ label: 'keyholder' })
      await form.getByLabel('Label').fill('docs reader')
      await form.getByLabel('Rules').fill('/docs/** -r--l---')
      await form.getByRole('button', { name: 'Create key' }).click()

      const field = page.getByLabel('New API key')
      await expect.poll(() => field.count(), { timeout: 15_000 }).toBe(1)
      expect(await field.getAttribute('readonly')).not.toBeNull()
      const key = await field.inputValue()
      expect(key).toMatch(/^svc_/)
      await page.evaluate(() => navigator.clipboard.writeText('not the key'))
      await page.getByRole('button', { name: 'Copy' }).click()
      await expect
        .poll(() => page.getByRole('status').textContent(), { timeout: 15_000 })
        .toBe('Copied.')
      const copied = await page.evaluate(() => navigator.clipboard.readText())
      expect(copied).toBe(key)

      // What was copied is what works.
      expect(await readStatus('/docs/readme.txt', copied)).toBe(200)
      expect([403, 404]).toContain(await readStatus('/top.txt', copied))

      const keys = page.getByRole('table', { name: 'API keys' })
      await expect
        .poll(() => keys.getByRole('row', { name: /docs reader/ }).count(), { timeout: 15_000 })
        .toBe(1)
      await keys.getByRole('button', { name: 'Revoke docs reader' }).click()
      const dialog = page.getByRole('dialog', { name: 'Revoke docs reader?' })
      await expect.poll(() => dialog.count(), { timeout: 15_000 }).toBe(1)
      await dialog.getByRole('button', { name: 'Revoke', exact: true }).click()
      await expect
        .poll(() => keys.getByRole('button', { name: 'Revoke docs reader' }).count(), {
          timeout: 15_000,
        })
        .toBe(0)
      expect(await readStatus('/docs/readme.txt', copied)).toBe(401)
      expect(problems).toEqual([])
      await page.close()
    },
    TIMEOUT_MS,
  )

  it(
    'creates a user, refuses a duplicate username with the server’s message, deactivates the user',
    async () => {
      const { page, problems } = await openIdentity()
      const form = page.getByRole('form', { name: 'Create a user' })
      const users = page.getByRole('table', { name: 'Users' })
      await form.getByLabel('Username').fill('grace')
      await form.getByLabel('Email').fill('grace@example.com')
      await form.getByRole('button', { name: 'Create user' }).click()
      await expect
        .poll(() => users.getByRole('row', { name: /grace@example\.com/ }).count(), {
          timeout: 15_000,
        })
        .toBe(1)

      await form.getByLabel('Username').fill('grace')
      await form.getByRole('button', { name: 'Create user' }).click()
      const alert = form.getByRole('alert')
      await expect.poll(() => alert.count(), { timeout: 15_000 }).toBe(1)
      expect(await alert.textContent()).toMatch(/already taken/)
      expect(await users.getByRole('row', { name: /grace/ }).count()).toBe(1)

      await users.getByRole('button', { name: 'Edit grace' }).click()
      const edit = page.getByRole('form', { name: 'Edit grace' })
      await edit.getByLabel('Active').uncheck()
      await edit.getByRole('button', { name: 'Save' }).click()
      await expect.poll(() => edit.count(), { timeout: 15_000 }).toBe(0)
      const row = users.getByRole('row', { name: /grace/ })
      await expect
        .poll(() => row.getByRole('cell', { name: 'no', exact: true }).count(), { timeout: 15_000 })
        .toBe(1)
      const listed = (await api('GET', '/system/users')) as {
        items: { username: string; is_active: boolean }[]
      }
      expect(listed.items.find((u) => u.username === 'grace')?.is_active).toBe(false)
      // The refused duplicate is the one failed request Chromium reports.
      expect(problems.filter((p) => !p.includes('409 (Conflict)'))).toEqual([])
      await page.close()
    },
    TIMEOUT_MS,
  )
  it(
    'creates a group with its query, edits it, and deletes it after a confirm',
    async () => {
      const { page, problems } = await openIdentity()
      const form = page.getByRole('form', { name: 'Create a group' })
      await form.getByLabel('Name').fill('staff')
      await form.getByLabel('Allow (path glob)').fill('/team/**')
      await form.getByLabel('Query field').fill('tags')
      await form.getByLabel('Query operator').fill('has')
      await form.getByLabel('Query value').fill('staff')
      await form.getByRole('button', { name: 'Create group' }).click()
      const groups = page.getByRole('table', { name: 'Groups' })
      await expect
        .poll(() => groups.getByRole('row', { name: /staff/ }).count(), { timeout: 15_000 })
        .toBe(1)
      expect(await groups.getByRole('row', { name: /staff/ }).textContent()).toContain(
        'tags has staff',
      )

      await groups.getByRole('button', { name: 'Edit staff' }).click()
      const edit = page.getByRole('form', { name: 'Edit group staff' })
      await edit.getByLabel('Query value').fill('staff,ops')
      await edit.getByLabel('Query operator').fill('has_any')
      await edit.getByRole('button', { name: 'Save group' }).click()
      await expect.poll(() => edit.count(), { timeout: 15_000 }).toBe(0)
      await expect
        .poll(() => groups.getByRole('row', { name: /staff/ }).textContent(), { timeout: 15_000 })
        .toContain('tags has_any staff,ops')

      // By keyboard: Escape leaves the group alone; Cancel holds the focus, Tab reaches Delete.
      const remove = groups.getByRole('button', { name: 'Delete staff' })
      const dialog = page.getByRole('dialog', { name: 'Delete group staff?' })
      await remove.focus()
      await page.keyboard.press('Enter')
      await expect.poll(() => dialog.count(), { timeout: 15_000 }).toBe(1)
      await page.keyboard.press('Escape')
      await expect.poll(() => dialog.count(), { timeout: 15_000 }).toBe(0)
      expect(await groups.getByRole('row', { name: /staff/ }).count()).toBe(1)
      await remove.focus()
      await page.keyboard.press('Enter')
      await expect.poll(() => dialog.count(), { timeout: 15_000 }).toBe(1)
      await page.keyboard.press('Tab')
      await page.keyboard.press('Enter')
      await expect.poll(() => page.getByText('No groups yet.').count(), { timeout: 15_000 }).toBe(1)
      const listed = (await api('GET', '/system/groups')) as { items: unknown[] }
      expect(listed.items).toEqual([])
      expect(problems).toEqual([])
      await page.close()
    },
    TIMEOUT_MS,
  )
  it(
    'shares a path with a user and unshares it after a confirm',
    async () => {
      const user = (await api('POST', '/system/users', { username: 'sharee' })) as {
        user_id: string
      }
      const { page, problems } = await openIdentity()
      const form = page.getByRole('form', { name: 'Share a path' })
      await form.getByLabel('Path').fill('/docs')
      await form.getByLabel('Share with').selectOption({ label: 'user sharee' })
      await form.getByLabel('Permissions').fill('-r--l---')
      await form.getByRole('button', { name: 'Share', exact: true }).click()
      const shares = page.getByRole('table', { name: 'Shares' })
      const row = shares.getByRole('row', { name: /user sharee/ })
      await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(1)
      expect(await row.textContent()).toContain('-r--l---')
      const granted = (await api('GET', '/files/shares?path=/docs')) as {
        items: { user_id?: string }[]
      }
      expect(granted.items.some((item) => item.user_id === user.user_id)).toBe(true)

      await row.getByRole('button', { name: 'Unshare /docs from user sharee' }).click()
      const dialog = page.getByRole('dialog', { name: 'Unshare /docs from user sharee?' })
      await dialog.getByRole('button', { name: 'Unshare', exact: true }).click()
      await expect.poll(() => row.count(), { timeout: 15_000 }).toBe(0)
      const left = (await api('GET', '/files/shares?path=/docs')) as {
        items: { user_id?: string }[]
      }
      expect(left.items.some((item) => item.user_id === user.user_id)).toBe(false)
      expect(problems).toEqual([])
      await page.close()
    },
    TIMEOUT_MS,
  )

  it(
    'creates a share link shown once, which reads its path only, and revokes it',
    async () => {
      const { page, problems } = await openIdentity()
      const form = page.getByRole('form', { name: 'Create a share link' })
      await form.getByLabel('Path').fill('/docs')
      await form.getByLabel('Permissions').fill('-r--l---')
      await form.getByRole('button', { name: 'Create link' }).click()
      const field = page.getByLabel('New share link')
      await expect.poll(() => field.count(), { timeout: 15_000 }).toBe(1)
      // Without a public URL configured, the server gives the link's key (a bearer credential).
      const key = await field.inputValue()
      expect(key).toMatch(/^svc_/)
      expect(await readStatus('/docs/readme.txt', key)).toBe(200)
      expect(await readStatus('/top.txt', key)).toBe(404)

      const links = page.getByRole('table', { name: 'Share links' })
      const revoke = links.getByRole('button', { name: 'Revoke link to /docs' })
      await expect.poll(() => revoke.count(), { timeout: 15_000 }).toBe(1)
      await revoke.click()
      const dialog = page.getByRole('dialog', { name: 'Revoke the link to /docs?' })
      await dialog.getByRole('button', { name: 'Revoke', exact: true }).click()
      await expect
        .poll(() => page.getByText('No share links.').count(), { timeout: 15_000 })
        .toBe(1)
      expect(await readStatus('/docs/readme.txt', key)).toBe(401)
      expect(problems).toEqual([])
      await page.close()
    },
    TIMEOUT_MS,
  )
})
