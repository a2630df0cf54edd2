import { randomBytes } from 'node:crypto'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CONSOLE_TIMEOUT_MS as TIMEOUT_MS, startConsoleHarness } from './console-harness'
import type { ConsoleHarness } from './console-harness'

// The harness reports every CSP violation of a console page as a problem; these tests make real
// violations in both browsers and check that they are caught, in Chromium too, which logs
// refused WebAssembly nowhere.

const WAIT = { timeout: 15_000 }

/** The browsers, and what each logs by itself (besides the events) when WebAssembly is refused. */
const BROWSERS = [
  { browser: 'chromium', logsRefusedWasm: null },
  { browser: 'firefox', logsRefusedWasm: /^pageerror: .* blocked WebAssembly \(script-src\)/ },
] as const

/** How many rows of the listing are named `name`. */
const rowsNamed = (page: Page, name: string) =>
  page.getByRole('table').getByRole('rowheader', { name, exact: true }).count()

/** What the harness reports of WebAssembly compiled from a console script the CSP refuses. */
const WASM_REFUSED = expect.stringMatching(
  /^CSP violation: script-src blocked wasm-eval at http:\/\/127\.0\.0\.1:\d+\/console\/assets\/[\w-]+\.js:\d+$/,
)
/** What the harness reports of an inline script the CSP refuses. */
const INLINE_REFUSED = expect.stringMatching(
  /^CSP violation: script-src-elem blocked inline at http:\/\/127\.0\.0\.1:\d+\/console\//,
)
const INLINE_TITLE = 'inline ran'

const isViolation = (problem: string) => problem.startsWith('CSP violation: ')
/** The harness's reports of CSP violations among a page's problems. */
const violations = (problems: string[]) => problems.filter(isViolation)
/** What the browser logged by itself among a page's problems. */
const logged = (problems: string[]) => problems.filter((problem) => !isViolation(problem))

/**
 * Serves the console's page with the CSP it had before WebAssembly was allowed, failing the
 * request if the header no longer has the source this takes out.
 */
const withoutWasmUnsafeEval = (page: Page) =>
  page.route(/\/console\//, async (route) => {
    if (route.request().resourceType() !== 'document') return route.fallback()
    const response = await route.fetch()
    const headers = response.headers()
    const csp = headers['content-security-policy'] ?? ''
    if (!csp.includes(" 'wasm-unsafe-eval'")) return route.abort()
    return route.fulfill({
      response,
      headers: { ...headers, 'content-security-policy': csp.replace(" 'wasm-unsafe-eval'", '') },
    })
  })

/** Inserts an inline script, which the console's CSP refuses, into the page. */
const insertInlineScript = (page: Page) =>
  page.evaluate((title) => {
    const script = document.createElement('script')
    script.textContent = `document.title = ${JSON.stringify(title)}`
    document.body.append(script)
  }, INLINE_TITLE)

/** Uploads `bytes` into the listed directory as `name` and waits until it says so. */
async function upload(page: Page, name: string, bytes: Buffer): Promise<void> {
  await page
    .getByLabel('Upload', { exact: true })
    .setInputFiles({ name, mimeType: 'application/octet-stream', buffer: bytes })
  await expect
    .poll(() => page.getByRole('status').filter({ hasText: 'Uploaded 1 file' }).count(), WAIT)
    .toBe(1)
}

describe.each(BROWSERS)(
  'CSP violations on console pages in $browser',
  ({ browser, logsRefusedWasm }) => {
    let harness: ConsoleHarness

    beforeAll(async () => {
      harness = await startConsoleHarness({}, { browser })
      await harness.put('/docs/readme.txt', 'read me first\n')
    }, TIMEOUT_MS)

    afterAll(() => harness?.close(), TIMEOUT_MS)

    it(
      'are collected when an upload compiles WebAssembly under the old `script-src` without it',
      async () => {
        const { page, problems } = await harness.open({
          hash: '#/files/docs',
          prepare: withoutWasmUnsafeEval,
        })
        await expect.poll(() => rowsNamed(page, 'readme.txt'), WAIT).toBe(1)
        const bytes = randomBytes(200 * 1024) // more than one chunk
        await upload(page, 'old-csp.bin', bytes)
        // The chunker falls back to JavaScript, so the upload still succeeds.
        const stored = await harness.api('GET', '/files/docs/old-csp.bin')
        expect(Buffer.compare(Buffer.from(await stored.arrayBuffer()), bytes)).toBe(0)
        await expect.poll(() => violations(problems).length, WAIT).toBeGreaterThan(0)
        expect(violations(problems)).toEqual(violations(problems).map(() => WASM_REFUSED))
        const ownLines = logged(problems)
        if (logsRefusedWasm === null) expect(ownLines).toEqual([])
        else expect(ownLines).toEqual(ownLines.map(() => expect.stringMatching(logsRefusedWasm)))
        await page.close()
      },
      TIMEOUT_MS,
    )

    it(
      'are collected when the page inserts an inline script',
      async () => {
        const { page, problems } = await harness.open({ hash: '#/files/docs' })
        await expect.poll(() => rowsNamed(page, 'readme.txt'), WAIT).toBe(1)
        await insertInlineScript(page)
        await expect.poll(() => violations(problems), WAIT).toEqual([INLINE_REFUSED])
        expect(await page.title()).not.toBe(INLINE_TITLE)
        await page.close()
      },
      TIMEOUT_MS,
    )

    it(
      'are none on the real header when an upload compiles WebAssembly',
      async () => {
        const { page, problems } = await harness.open({ hash: '#/files/docs' })
        await expect.poll(() => rowsNamed(page, 'readme.txt'), WAIT).toBe(1)
        await upload(page, 'real-csp.bin', randomBytes(200 * 1024))
        // Reports reach the harness in the order the page sends them: once this one made after
        // the upload has arrived, any violation of the upload would have arrived before it.
        await insertInlineScript(page)
        await expect.poll(() => violations(problems), WAIT).toEqual([INLINE_REFUSED])
        // Besides, each browser logs the inline script it refused.
        expect(logged(problems).filter((problem) => !/inline script/.test(problem))).toEqual([])
        await page.close()
      },
      TIMEOUT_MS,
    )
  },
)
