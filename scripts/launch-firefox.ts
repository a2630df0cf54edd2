import { existsSync } from 'node:fs'
import { firefox } from 'playwright-core'
import type { Browser } from 'playwright-core'

/** Debian's Firefox ESR; Playwright's own patched Firefox cannot be downloaded here. */
export const FIREFOX_PATH = '/usr/bin/firefox-esr'

/**
 * Launches headless Firefox, failing with what to install when it is missing. A `moz-*`
 * channel makes playwright-core drive stock Firefox over WebDriver BiDi (experimental in
 * 1.65) instead of its patched build; it gives every launch a fresh temporary profile whose
 * preferences already keep Firefox's background services off the network.
 */
export async function launchFirefox(): Promise<Browser> {
  if (!existsSync(FIREFOX_PATH))
    throw new Error(
      `Debian's Firefox ESR is missing at ${FIREFOX_PATH}: install it with ` +
        '`sudo apt-get install -y --no-install-recommends firefox-esr` (.ci/run does this).',
    )
  const browser = await firefox.launch({
    channel: 'moz-firefox',
    executablePath: FIREFOX_PATH,
    headless: true,
  })
  bridgeFirefoxEsrGaps(browser)
  return browser
}

/** The one BiDi command playwright-core 1.65 sends that Firefox 153 ESR does not know. */
const MEDIA_FEATURES_OVERRIDE = 'emulation.setMediaFeaturesOverride'
const DOWNLOAD_EVENTS = new Set([
  'browsingContext.downloadWillBegin',
  'browsingContext.downloadEnd',
])

interface BidiMessage {
  type?: string
  method?: string
  params?: { context?: string; url?: string; navigation?: string | null; download?: string }
}
interface BidiSession {
  send(method: string, params: unknown): Promise<unknown>
  dispatchMessage(message: BidiMessage): void
}
interface InProcessFirefox {
  _connection?: { toImpl?: (api: unknown) => { _browserSession?: BidiSession } | undefined }
}
const patched = new WeakSet<object>()

/**
 * Bridges two gaps between playwright-core 1.65's BiDi client and Firefox 153 ESR; each
 * bridge is inert once Firefox behaves as playwright-core expects. The BiDi session class
 * is only reachable through the in-process server behind the public API, hence the casts.
 *
 * - Every new page fails with "Protocol error (emulation.setMediaFeaturesOverride): unknown
 *   command": playwright-core sends it unconditionally to emulate `prefers-color-scheme`,
 *   which ESR does not implement. No test emulates a colour scheme, so that refusal alone is
 *   taken as done.
 * - A download that no navigation started (a click on an `<a download>` with a blob: URL, as
 *   the console saves files) arrives with `navigation: null` and no `download` id, and
 *   playwright-core drops it: no `download` event ever fires. Such events get an id made of
 *   their browsing context and URL, the same for the begin and end of one download.
 */
function bridgeFirefoxEsrGaps(browser: Browser): void {
  const session = (firefox as unknown as InProcessFirefox)._connection?.toImpl?.(
    browser,
  )?._browserSession
  const prototype = session === undefined ? undefined : (Object.getPrototypeOf(session) as object)
  if (prototype === undefined || patched.has(prototype)) return
  patched.add(prototype)
  const bidi = prototype as BidiSession
  const { send, dispatchMessage } = bidi
  bidi.send = async function (this: BidiSession, method, params) {
    try {
      return await send.call(this, method, params)
    } catch (err) {
      const unknown = err instanceof Error && err.message.includes('): unknown command')
      if (method === MEDIA_FEATURES_OVERRIDE && unknown) return {}
      throw err
    }
  }
  bidi.dispatchMessage = function (this: BidiSession, message) {
    const { params } = message
    if (
      message.type === 'event' &&
      DOWNLOAD_EVENTS.has(message.method ?? '') &&
      params !== undefined &&
      params.download === undefined &&
      params.navigation == null
    )
      params.download = `${params.context ?? ''} ${params.url ?? ''}`
    dispatchMessage.call(this, message)
  }
}
