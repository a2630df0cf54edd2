import { existsSync } from 'node:fs'
import { chromium } from 'playwright-core'
import type { Browser } from 'playwright-core'

/** Debian's Chromium; playwright-core drives it, since its own browser downloads fail here. */
export const CHROMIUM_PATH = '/usr/bin/chromium'

/**
 * Launches headless Chromium, failing with what to install when it is missing. Playwright
 * gives every launch a fresh temporary profile. The network flags matter on closed networks:
 * without them Chromium's background connections are refused, many at a time.
 */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH))
    throw new Error(
      `Debian's Chromium is missing at ${CHROMIUM_PATH}: install it with ` +
        '`sudo apt-get install -y --no-install-recommends chromium` (.ci/run does this).',
    )
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  })
}
