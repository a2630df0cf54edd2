import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { expect } from 'vitest'
import { DEFAULT_SERVER_CONFIG } from '../../src/config/server-config'
import type { ServerConfig } from '../../src/config/server-config'
import { createLogger } from '../../src/logger'
import { startServer } from '../../src/start-server'
import type { RunningServer } from '../../src/start-server'
// The repository's browser launchers, shared by the browser tests of two packages.
// eslint-disable-next-line import-x/no-relative-packages
import { launchChromium } from '../../../../scripts/launch-chromium'
// eslint-disable-next-line import-x/no-relative-packages
import { launchFirefox } from '../../../../scripts/launch-firefox'

/** Time for a whole console test (the browser starts, signs in, waits on screens). */
export const CONSOLE_TIMEOUT_MS = 60_000

/**
 * A console page and what went wrong on it: console errors, uncaught errors and every
 * `securitypolicyviolation` event, as `CSP violation: <directive> blocked <URI> at <source>`.
 * The browsers log only some violations (Chromium says nothing of refused WebAssembly), so the
 * events are the measure; a violation a browser also logs shows up twice.
 */
export interface OpenedConsole {
  page: Page
  problems: string[]
}

/** Options of {@link ConsoleHarness.open}. */
export interface OpenOptions {
  /** Where to go: `/console/<hash>`; the server's `/` (which redirects there) when absent. */
  hash?: string
  /** The API key to sign in with (root's by default); `null` leaves the sign-in form as is. */
  key?: string | null
  /**
   * Ignores Chromium's "Failed to load resource" lines: answers a screen expects and shows
   * (a 404, a refused form) are logged that way; CSP violations are not. Firefox logs no such
   * lines.
   */
  ignoreFailedLoads?: boolean
  /** Runs on the new page before it loads anything (routes to intercept, say). */
  prepare?: (page: Page) => Promise<unknown>
}

/** The browsers the console is tested in. */
export type ConsoleBrowser = 'chromium' | 'firefox'

/** Options of {@link startConsoleHarness}. */
export interface ConsoleHarnessOptions {
  /** The headless browser pages open in: Debian's Chromium (the default) or Firefox ESR. */
  browser?: ConsoleBrowser
}

/** The function through which a page reports its CSP violations to the harness. */
const CSP_VIOLATION_BINDING = '__consoleHarnessCspViolation'

/**
 * Listens for CSP violations from the start of every document of `page` and adds each to
 * `problems`. An init script is the browser's own, not the page's, so the CSP it reports on
 * does not refuse it. It listens on the window in the capture phase: the events are fired at
 * the element or document concerned, and bubble.
 */
async function collectCspViolations(page: Page, problems: string[]): Promise<void> {
  await page.exposeBinding(CSP_VIOLATION_BINDING, (_source, text: string) => problems.push(text))
  await page.addInitScript((binding) => {
    addEventListener(
      'securitypolicyviolation',
      (event) => {
        const { violatedDirective, blockedURI, sourceFile, lineNumber, documentURI } = event
        const source = sourceFile === '' ? documentURI : `${sourceFile}:${lineNumber}`
        const report = (globalThis as unknown as Record<string, (text: string) => unknown>)[binding]
        const text = `CSP violation: ${violatedDirective} blocked ${blockedURI || '(none)'} at ${source}`
        // Without the binding, a console error still reaches the problems.
        if (report === undefined) console.error(text)
        // A page closing meanwhile refuses the call; nobody is left to tell.
        else Promise.resolve(report(text)).catch(() => undefined)
      },
      true,
    )
  }, CSP_VIOLATION_BINDING)
}

const LAUNCHERS: Record<ConsoleBrowser, () => Promise<Browser>> = {
  chromium: launchChromium,
  firefox: launchFirefox,
}

/** The built console served by a real server started from source, and a headless browser. */
export interface ConsoleHarness {
  url: string
  rootKey: string
  /**
   * Calls the API as root and fails the test on an error status. A string body is sent as
   * `contentType` (text/plain by default), bytes as `contentType`, anything else as JSON.
   */
  api(method: string, path: string, body?: unknown, contentType?: string): Promise<Response>
  /** Stores `body` at `path` as root. */
  put(path: string, body: string | Uint8Array, contentType?: string): Promise<void>
  /** A new page of the console, signed in unless told not to, its problems collected. */
  open(options?: OpenOptions): Promise<OpenedConsole>
  close(): Promise<void>
}

/**
 * Starts the server on a fresh database (root's key minted) and a browser, Chromium unless
 * `options` say otherwise. `config` overrides the server's defaults (a metrics interval, dev
 * mode…); port and data directory are the harness's.
 */
export async function startConsoleHarness(
  config: Partial<ServerConfig> = {},
  { browser: browserName = 'chromium' }: ConsoleHarnessOptions = {},
): Promise<ConsoleHarness> {
  const dataDir = await mkdtemp(join(tmpdir(), 'svcdb-console-e2e-'))
  let server: RunningServer | undefined
  let browser: Browser | undefined
  const close = async () => {
    await browser?.close()
    await server?.close()
    await rm(dataDir, { recursive: true, force: true })
  }
  try {
    server = await startServer(
      { ...DEFAULT_SERVER_CONFIG, ...config, port: 0, dataDir },
      { logger: createLogger({ level: 'silent' }) },
    )
    browser = await LAUNCHERS[browserName]()
  } catch (err) {
    await close()
    throw err
  }
  const { url } = server
  const rootKey = server.rootApiKey as string
  const pages = browser

  const api: ConsoleHarness['api'] = async (method, path, body, contentType) => {
    const headers: Record<string, string> = { authorization: `Bearer ${rootKey}` }
    let sent: BodyInit | undefined
    if (typeof body === 'string' || body instanceof Uint8Array) {
      headers['content-type'] = contentType ?? 'text/plain'
      sent = typeof body === 'string' ? body : new Uint8Array(body)
    } else if (body !== undefined) {
      headers['content-type'] = 'application/json'
      sent = JSON.stringify(body)
    }
    const res = await fetch(`${url}${path}`, { method, headers, body: sent ?? null })
    expect(res.status, `${method} ${path}`).toBeLessThan(300)
    return res
  }

  return {
    url,
    rootKey,
    api,
    async put(path, body, contentType) {
      await (await api('PUT', `/files${path}`, body, contentType)).arrayBuffer()
    },
    async open({ hash, key = rootKey, ignoreFailedLoads = false, prepare } = {}) {
      const page = await pages.newPage({ acceptDownloads: true })
      const problems: string[] = []
      await collectCspViolations(page, problems)
      await prepare?.(page)
      page.on('console', (message) => {
        const text = message.text()
        if (message.type() !== 'error') return
        if (ignoreFailedLoads && text.startsWith('Failed to load resource')) return
        problems.push(text)
      })
      page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`))
      await page.goto(hash === undefined ? `${url}/` : `${url}/console/${hash}`)
      if (key !== null) {
        await page.getByLabel('API key').fill(key)
        await page.getByRole('button', { name: 'Sign in' }).click()
      }
      return { page, problems }
    },
    close,
  }
}
