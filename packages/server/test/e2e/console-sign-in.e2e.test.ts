import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSmtpTestServer } from '../kit/smtp-test-server'
import type { SmtpTestServer } from '../kit/smtp-test-server'
import { CONSOLE_TIMEOUT_MS as TIMEOUT_MS, startConsoleHarness } from './console-harness'
import type { ConsoleHarness } from './console-harness'

const POLL = { timeout: 15_000 }
/** Where the console keeps the refresh token (its `session/refresh-token-store.ts`). */
const REFRESH_TOKEN_KEY = 'svcdb.console.refresh-token'

let harness: ConsoleHarness
let smtp: SmtpTestServer
/** An API key of `ada`, who is not root. */
let adaKey: string

const api = async (method: string, path: string, body?: unknown) =>
  (await harness.api(method, path, body)).json()

const storedRefreshToken = (page: Page) =>
  page.evaluate((key) => sessionStorage.getItem(key), REFRESH_TOKEN_KEY)

/** The section links of the top bar, by name. */
const sectionNames = (page: Page) =>
  page.getByRole('navigation', { name: 'Sections' }).getByRole('link').allTextContents()

/** Waits for the signed-in top bar and the root listing. */
async function signedInAs(page: Page, username: string): Promise<void> {
  await expect.poll(() => page.getByRole('button', { name: 'Sign out' }).count(), POLL).toBe(1)
  expect(await page.locator('.who').textContent()).toBe(`Signed in as ${username}`)
  await expect
    .poll(() => page.getByRole('link', { name: 'docs', exact: true }).count(), POLL)
    .toBe(1)
}

/** Asks for a sign-in link on the form and returns the link the server mailed. */
async function mailedLink(page: Page, address: string): Promise<string> {
  const field = page.getByLabel('Email', { exact: true })
  await expect.poll(() => field.count(), POLL).toBe(1)
  await field.fill(address)
  await page.getByRole('button', { name: 'Email me a sign-in link' }).click()
  await expect.poll(() => page.getByRole('status').textContent(), POLL).toMatch(/on its way/)
  const mail = await smtp.nextMail()
  expect(mail.to).toEqual([address])
  const link = /https?:\/\/\S+magic_link_code=[\w%-]+/.exec(mail.decoded)?.[0]
  expect(link).toBeDefined()
  return link as string
}

/** Points the server's email at the test SMTP server (again, harmlessly). */
const configureEmail = () =>
  api('PUT', '/system/email-config', {
    provider: 'smtp',
    host: '127.0.0.1',
    port: smtp.port,
    username: 'mailer',
    password: 'any',
    from_address: 'svcdb@example.com',
    tls: false,
  })

/** Opens `link` (an address of the console) in a new page, signed in by nothing else. */
const openLink = (link: string, ignoreFailedLoads = false) => {
  const prefix = `${harness.url}/console/`
  expect(link.startsWith(prefix)).toBe(true)
  return harness.open({ hash: link.slice(prefix.length), key: null, ignoreFailedLoads })
}

beforeAll(async () => {
  smtp = await startSmtpTestServer()
  harness = await startConsoleHarness()
  await harness.put('/docs/readme.txt', 'read me first\n')
  const ada = (await api('POST', '/system/users', {
    username: 'ada',
    email: 'ada@example.com',
  })) as { user_id: string }
  adaKey = (
    (await api('POST', '/auth/keys/admin', { user_id: ada.user_id })) as { api_key: string }
  ).api_key
  // Ada may read and list everything, and nothing more: she is not root.
  await api('POST', '/files/share', { paths: ['/'], users: [ada.user_id], permissions: '-r--l---' })
}, TIMEOUT_MS)

afterAll(async () => {
  await harness?.close()
  await smtp?.close()
}, TIMEOUT_MS)

describe('the console’s sign in, in headless Chromium', () => {
  it(
    'offers a link by email once email is configured; the mailed link opens the console signed in',
    async () => {
      const before = await harness.open({ key: null })
      await expect.poll(() => before.page.getByLabel('API key').count(), POLL).toBe(1)
      // The form shows once it knows what the server offers: no email yet, no second option.
      expect(await before.page.getByLabel('Email', { exact: true }).count()).toBe(0)
      expect(before.problems).toEqual([])
      await before.page.close()

      await configureEmail()
      const asking = await harness.open({ key: null })
      const link = await mailedLink(asking.page, 'ada@example.com')
      expect(link.startsWith(`${harness.url}/console/?magic_link_code=`)).toBe(true)
      expect(asking.problems).toEqual([])
      await asking.page.close()

      const { page, problems } = await openLink(link)
      await signedInAs(page, 'ada')
      // The single-use code left the address bar; a magic link gives no refresh token to keep.
      const { pathname, search } = new URL(page.url())
      expect([pathname, search]).toEqual(['/console/', ''])
      expect(await storedRefreshToken(page)).toBeNull()
      expect(await sectionNames(page)).toEqual(['Files', 'Versions'])
      expect(problems).toEqual([])
      await page.close()

      // Used once: opening it again says so, on the sign-in form.
      const again = await openLink(link, true)
      const alert = again.page.getByRole('alert')
      await expect.poll(() => alert.count(), POLL).toBe(1)
      expect(await alert.textContent()).toMatch(/invalid, expired or already used/)
      expect(await again.page.getByLabel('API key').count()).toBe(1)
      expect(again.page.url()).toBe(`${harness.url}/console/`)
      expect(again.problems).toEqual([])
      await again.page.close()
    },
    2 * TIMEOUT_MS,
  )

  it(
    'says a made-up link is invalid and still signs in with an API key after it',
    async () => {
      const { page, problems } = await harness.open({
        hash: '?magic_link_code=not-a-code#/versions',
        key: null,
        ignoreFailedLoads: true,
      })
      await expect.poll(() => page.getByRole('alert').count(), POLL).toBe(1)
      expect(await page.getByRole('alert').textContent()).toMatch(
        /invalid, expired or already used/,
      )
      expect(page.url()).toBe(`${harness.url}/console/#/versions`)
      await page.getByLabel('API key').fill(harness.rootKey)
      await page.getByRole('button', { name: 'Sign in' }).click()
      await expect.poll(() => page.getByRole('button', { name: 'Sign out' }).count(), POLL).toBe(1)
      expect(await page.getByRole('alert').count()).toBe(0)
      expect(problems).toEqual([])
      await page.close()
    },
    TIMEOUT_MS,
  )

  it(
    'signs out to the form, the refresh token gone from sessionStorage',
    async () => {
      await configureEmail()
      const { page, problems } = await harness.open()
      await signedInAs(page, 'root')
      expect(await storedRefreshToken(page)).toMatch(/^rt_/)
      await page.getByRole('button', { name: 'Sign out' }).click()
      await expect.poll(() => page.getByLabel('API key').count(), POLL).toBe(1)
      expect(await page.getByLabel('Email', { exact: true }).count()).toBe(1)
      expect(await storedRefreshToken(page)).toBeNull()
      expect(await page.evaluate(() => sessionStorage.length)).toBe(0)
      // Nothing of the session survives a reload either.
      await page.reload()
      await expect.poll(() => page.getByLabel('API key').count(), POLL).toBe(1)
      expect(problems).toEqual([])
      await page.close()
    },
    TIMEOUT_MS,
  )

  it(
    'shows a user signed in with their API key no Identity or System, even by address',
    async () => {
      const { page, problems } = await harness.open({ key: adaKey })
      await signedInAs(page, 'ada')
      expect(await sectionNames(page)).toEqual(['Files', 'Versions'])
      await page.evaluate(() => {
        location.hash = '#/identity'
      })
      // Root's screens are not there for anyone else: the address shows Files.
      const current = page
        .getByRole('navigation', { name: 'Sections' })
        .locator('[aria-current="page"]')
      await expect.poll(() => current.textContent(), POLL).toBe('Files')
      expect(await page.getByRole('heading', { name: 'Identity' }).count()).toBe(0)
      expect(await sectionNames(page)).toEqual(['Files', 'Versions'])
      expect(problems).toEqual([])
      await page.close()
    },
    TIMEOUT_MS,
  )

  it(
    'renews the access token once on a 401 and carries on',
    async () => {
      const refreshes: string[] = []
      let spoiled = 0
      const { page, problems } = await harness.open({
        ignoreFailedLoads: true,
        prepare: (p) => spoilListings(p, refreshes, () => ++spoiled <= 1),
      })
      await signedInAs(page, 'root')
      // The first listing went with a token the server refused (401): one renewal, one retry.
      expect(spoiled).toBeGreaterThanOrEqual(2)
      expect(refreshes).toHaveLength(1)
      expect(await storedRefreshToken(page)).toMatch(/^rt_/)
      expect(problems).toEqual([])
      await page.close()
    },
    TIMEOUT_MS,
  )

  it(
    'returns to sign in when the server refuses the renewed token too',
    async () => {
      const refreshes: string[] = []
      const { page, problems } = await harness.open({
        ignoreFailedLoads: true,
        prepare: (p) => spoilListings(p, refreshes, () => true),
      })
      await expect
        .poll(() => page.getByText('Your session has ended. Sign in again.').count(), POLL)
        .toBe(1)
      expect(await page.getByLabel('API key').count()).toBe(1)
      expect(refreshes).toHaveLength(1)
      expect(await storedRefreshToken(page)).toBeNull()
      expect(problems).toEqual([])
      await page.close()
    },
    TIMEOUT_MS,
  )
})

/**
 * Sends the listings `spoil` picks with a token the real server refuses (as it refuses an
 * expired one, which a test cannot wait for), and notes every `POST /auth/refresh`.
 */
async function spoilListings(page: Page, refreshes: string[], spoil: () => boolean) {
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/auth/refresh') refreshes.push(request.method())
  })
  await page.route(
    (url) => url.pathname.startsWith('/files'),
    async (route) => {
      const headers = route.request().headers()
      if (!spoil()) return route.continue()
      return route.continue({ headers: { ...headers, authorization: 'Bearer not-a-token' } })
    },
  )
}
