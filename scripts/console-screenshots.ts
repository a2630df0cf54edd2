// Takes the screenshots of the console's README: starts the server from source on a fresh
// database, seeds a few files and versions, signs in through the console in headless
// Chromium and captures each main screen into packages/console/docs/.
// Usage: pnpm exec turbo run build --filter=@svcdb/server && npx tsx scripts/console-screenshots.ts
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DEFAULT_SERVER_CONFIG } from '../packages/server/src/config/server-config'
import { createLogger } from '../packages/server/src/logger'
import { startServer } from '../packages/server/src/start-server'
import { launchChromium } from './launch-chromium'

const out = join(import.meta.dirname, '..', 'packages', 'console', 'docs')
const dataDir = await mkdtemp(join(tmpdir(), 'svcdb-screenshots-'))
const server = await startServer(
  { ...DEFAULT_SERVER_CONFIG, port: 0, dataDir, metricsIntervalMs: 250 },
  { logger: createLogger({ level: 'silent' }) },
)
const key = server.rootApiKey as string
// Files go without a content type, so the server names it from the file's extension.
const api = (method: string, path: string, body: string, type?: string) =>
  fetch(`${server.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(type === undefined ? {} : { 'content-type': type }),
    },
    body,
  })
for (const [path, text] of [
  ['/docs/README.md', '# Team notes\n\nWhat we decided, and why.\n'],
  ['/docs/plan.json', '{"quarter": "Q1", "goals": ["ship", "measure"]}'],
  ['/docs/archive/2025.txt', 'last year\n'],
  ['/tickets/1.json', '{"status": "open", "title": "first ticket"}'],
  ['/tickets/2.json', '{"status": "closed", "title": "second ticket"}'],
  ['/notes.txt', 'remember the milk\n'],
] as const)
  await api('PUT', `/files${path}`, text)
await api('POST', '/versions/snapshots', JSON.stringify({ name: 'first' }), 'application/json')

const browser = await launchChromium()
try {
  const page = await browser.newPage({ viewport: { width: 1100, height: 640 } })
  await page.goto(`${server.url}/`)
  await page.getByLabel('API key').waitFor()
  await page.screenshot({ path: join(out, 'sign-in.png') })
  await page.getByLabel('API key').fill(key)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.getByRole('table').waitFor()
  await page.getByRole('link', { name: 'docs', exact: true }).click()
  await page.getByText('plan.json').waitFor()
  await page.screenshot({ path: join(out, 'files.png') })
  await page.getByRole('button', { name: 'README.md', exact: true }).click()
  await page.getByRole('region', { name: 'Preview of README.md' }).waitFor()
  await page.screenshot({ path: join(out, 'preview.png'), fullPage: true })
  await page.getByRole('link', { name: 'Versions' }).click()
  await page.getByText('first').first().waitFor()
  await page.screenshot({ path: join(out, 'versions.png') })
  await page.getByRole('link', { name: 'Identity' }).click()
  await page.getByRole('heading', { name: 'Identity', level: 1 }).waitFor()
  await page.screenshot({ path: join(out, 'identity.png') })
  await page.getByRole('link', { name: 'System' }).click()
  await page.getByRole('heading', { name: 'System', level: 1 }).waitFor()
  await page.waitForTimeout(1500) // a few metrics events, so the charts show a line
  await page.screenshot({ path: join(out, 'system.png') })
} finally {
  await browser.close()
  await server.close()
  await rm(dataDir, { recursive: true, force: true })
}
console.log(`screenshots written to ${out}`)
