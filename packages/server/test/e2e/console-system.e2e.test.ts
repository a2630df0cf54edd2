import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSmtpTestServer } from '../kit/smtp-test-server'
import { CONSOLE_TIMEOUT_MS as TIMEOUT_MS, startConsoleHarness } from './console-harness'
import type { ConsoleHarness, OpenedConsole } from './console-harness'

const POLL = { timeout: 20_000 }

let harness: ConsoleHarness

/** The System screen of a signed-in root, with every CSP violation and page error collected. */
async function openSystem(prepare?: (page: Page) => Promise<void>): Promise<OpenedConsole> {
  // Answers the screens expect and show (no email settings yet: 404; a refused cron
  // expression: 400) are logged by Chromium as failed loads; CSP violations are not those.
  const opened = await harness.open({ ignoreFailedLoads: true, ...(prepare ? { prepare } : {}) })
  const { page } = opened
  await page
    .getByRole('navigation', { name: 'Sections' })
    .getByRole('link', { name: 'System' })
    .click()
  await expect
    .poll(() => page.getByRole('heading', { name: 'System', level: 1 }).count(), POLL)
    .toBe(1)
  return opened
}

/** How many samples a chart's accessible description says it holds. */
async function chartSamples(page: Page, title: string): Promise<number> {
  const label = await page
    .getByRole('img', { name: new RegExp(`^${title}:`) })
    .getAttribute('aria-label')
  return Number(/: (\d+) samples/.exec(label ?? '')?.[1] ?? -1)
}

/** A chart's uPlot canvas, found through its figure's accessible name. */
const chartCanvas = (page: Page, title: string) =>
  page.getByRole('figure', { name: title }).locator('canvas')

/**
 * How many pixels of a chart's canvas uPlot painted in a line's colour (rgb, give or take
 * the anti-aliasing): more than none once the line is drawn.
 */
async function paintedPixels(page: Page, title: string, rgb: readonly number[]): Promise<number> {
  return chartCanvas(page, title).evaluate((canvas, colour) => {
    const { width, height } = canvas as HTMLCanvasElement
    const context = (canvas as HTMLCanvasElement).getContext('2d')
    const pixels = context?.getImageData(0, 0, width, height).data ?? []
    let painted = 0
    for (let i = 0; i < pixels.length; i += 4) {
      const close = colour.every((c, k) => Math.abs((pixels[i + k] ?? 0) - c) < 40)
      if (close && (pixels[i + 3] ?? 0) > 200) painted++
    }
    return painted
  }, rgb)
}

/** The latest value a chart's text gives for one of its lines (`1.5 KiB`, `42.0 %`). */
async function chartValue(page: Page, title: string, line: string): Promise<string> {
  const key = page
    .getByRole('figure', { name: title, exact: true })
    .locator('.chart-key', { hasText: new RegExp(`^${line}: `) })
  return ((await key.textContent()) ?? '').slice(line.length + 2)
}

const BINARY_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB']

/** The bytes a printed size or byte rate stands for (`1.5 KiB` or `1.5 KiB/s`: 1536), NaN if none. */
function parseBytes(text: string): number {
  const match = /^(\d+(?:\.\d+)?) (\w+)(?:\/s)?$/.exec(text)
  const power = BINARY_UNITS.indexOf(match?.[2] ?? '')
  return match === null || power < 0 ? Number.NaN : Number(match[1]) * 1024 ** power
}

/** True when a printed size is `bytes` give or take its rounding (3 significant digits). */
const sameSize = (text: string, bytes: number) =>
  Math.abs(parseBytes(text) - bytes) <= Math.max(1, bytes * 0.05)

/** The stats as GET /system/stats answers them, with the fields the charts show. */
async function readStats(): Promise<{
  sizes: { logical_data: number; chunk_data: number; dedup_savings: number }
  throughput: { bytes_written_per_sec: { '1m': number }; bytes_read_per_sec: { '1m': number } }
  health: { dedup_hit_rate: number }
}> {
  return (await harness.api('GET', '/system/stats')).json() as never
}

/** The CSS width of a chart's canvas. */
const canvasWidth = async (page: Page, title: string) =>
  (await chartCanvas(page, title).boundingBox())?.width ?? 0

beforeAll(async () => {
  // A short metrics interval, so the live charts fill within the test.
  harness = await startConsoleHarness({ metricsIntervalMs: 200 })
  await harness.put('/docs/a.txt', 'first\n')
  await harness.put('/docs/b.txt', 'second\n')
  // A file replaced, so the old content is garbage for GC.
  await harness.put('/docs/b.txt', 'second, replaced\n')
}, TIMEOUT_MS)

afterAll(() => harness?.close(), TIMEOUT_MS)

describe('the System section of the console in headless Chromium', () => {
  it(
    'shows the stats in groups and live charts fed by metrics events, within the CSP',
    async () => {
      const { page, problems } = await openSystem()
      const counts = page.getByRole('region', { name: 'Counts' })
      await expect.poll(() => counts.textContent(), POLL).toMatch(/Files\s*2\s*Directories/)
      for (const group of [
        'Database',
        'Sizes and dedup',
        'Throughput (1 min)',
        'Latency',
        'Health',
      ]) {
        expect(await page.getByRole('region', { name: group }).count()).toBe(1)
      }
      expect(await page.getByRole('table', { name: 'Latency' }).getByRole('row').count()).toBe(5)

      // Points arrive with each metrics event (every 200 ms here), latency after each stats read.
      await expect.poll(() => chartSamples(page, 'Operations per second'), POLL).toBeGreaterThan(3)
      await expect.poll(() => chartSamples(page, 'Latency p95'), POLL).toBeGreaterThan(3)
      // uPlot draws each chart on a canvas: the write line (blue) and the read line (amber,
      // drawn last). The write line shows once writes part from reads (no reads here):
      // files are written until it does.
      const BLUE = [37, 99, 235]
      const AMBER = [217, 119, 6]
      let n = 0
      for (const title of ['Operations per second', 'Latency p95']) {
        expect(await chartCanvas(page, title).count()).toBe(1)
        await expect.poll(() => paintedPixels(page, title, AMBER), POLL).toBeGreaterThan(0)
        await expect
          .poll(async () => {
            await harness.put(`/charted/f${n++}.txt`, 'x')
            return paintedPixels(page, title, BLUE)
          }, POLL)
          .toBeGreaterThan(0)
      }
      // The latest values are also there as text.
      const legend = page.getByRole('figure', { name: 'Latency p95' })
      expect(await legend.textContent()).toMatch(/Write: \d+\.?\d* ms\s*Read: \d+\.?\d* ms/)

      // Bytes per second, sizes and dedup come from the same events. Two larger files (of
      // repeated content, so chunks repeat) and one read back: the 1-minute byte rates move
      // in 5-second steps and need more than a few bytes to show. Each chart fills and draws.
      await harness.put('/big/a.txt', 'abcdefgh'.repeat(32_768))
      await harness.put('/big/b.txt', 'hgfedcba'.repeat(32_768))
      await (await harness.api('GET', '/files/big/a.txt')).arrayBuffer()
      const GREEN = [5, 150, 105]
      for (const title of ['Bytes per second', 'Sizes', 'Dedup hit rate']) {
        await expect.poll(() => chartSamples(page, title), POLL).toBeGreaterThan(3)
        expect(await chartCanvas(page, title).count()).toBe(1)
        await expect
          .poll(async () => {
            let painted = 0
            for (const tone of [BLUE, AMBER, GREEN])
              painted += await paintedPixels(page, title, tone)
            return painted
          }, POLL)
          .toBeGreaterThan(0)
      }
      // Nothing is written now: sizes and the hit rate settle, and the chart text agrees with
      // the stats (sizes to their 3 printed digits, the rate to its one printed decimal).
      await expect
        .poll(async () => {
          const stats = await readStats()
          const hitRate = Number.parseFloat(await chartValue(page, 'Dedup hit rate', 'Hit rate'))
          return [
            sameSize(await chartValue(page, 'Sizes', 'Logical data'), stats.sizes.logical_data),
            sameSize(await chartValue(page, 'Sizes', 'Stored chunks'), stats.sizes.chunk_data),
            sameSize(await chartValue(page, 'Sizes', 'Saved by dedup'), stats.sizes.dedup_savings),
            Math.abs(hitRate - stats.health.dedup_hit_rate * 100) <= 0.051,
          ]
        }, POLL)
        .toEqual([true, true, true, true])
      const stats = await readStats()
      expect(stats.sizes.logical_data).toBeGreaterThan(512 * 1024)
      expect(stats.health.dedup_hit_rate).toBeGreaterThan(0)
      expect(await chartValue(page, 'Dedup hit rate', 'Hit rate')).toMatch(/^\d+\.\d %$/)
      // Live 1-minute rates move between an event and a stats read: both above zero, and
      // the chart's within a factor of two of the stats'.
      await expect
        .poll(async () => {
          const rates = (await readStats()).throughput
          const written = parseBytes(await chartValue(page, 'Bytes per second', 'Written'))
          const read = parseBytes(await chartValue(page, 'Bytes per second', 'Read'))
          return [
            written > 0 && written / rates.bytes_written_per_sec['1m'],
            read > 0 && read / rates.bytes_read_per_sec['1m'],
          ]
        }, POLL)
        .toEqual([
          expect.toSatisfy((r: number) => r > 0.5 && r < 2),
          expect.toSatisfy((r: number) => r > 0.5 && r < 2),
        ])

      // The charts follow their box: narrower when the window is. From one column (the grid
      // holds two from 656 px), so the chart's box narrows with the window.
      await page.setViewportSize({ width: 640, height: 800 })
      await expect.poll(() => canvasWidth(page, 'Latency p95'), POLL).toBeGreaterThan(500)
      const wide = await canvasWidth(page, 'Latency p95')
      await page.setViewportSize({ width: 420, height: 800 })
      await expect.poll(() => canvasWidth(page, 'Latency p95'), POLL).toBeLessThan(wide - 100)
      const figure = await page.getByRole('figure', { name: 'Latency p95' }).boundingBox()
      expect(await canvasWidth(page, 'Latency p95')).toBeLessThanOrEqual(figure?.width ?? 0)

      // Leaving the screen removes the charts; coming back draws them anew, once each.
      await page
        .getByRole('navigation', { name: 'Sections' })
        .getByRole('link', { name: 'Files' })
        .click()
      await expect.poll(() => page.locator('canvas').count(), POLL).toBe(0)
      await page
        .getByRole('navigation', { name: 'Sections' })
        .getByRole('link', { name: 'System' })
        .click()
      await expect.poll(() => page.locator('canvas').count(), POLL).toBe(5)
      expect(problems).toEqual([])
      await page.close()
    },
    TIMEOUT_MS,
  )

  it(
    'runs a GC dry run, shows what it would free, collects as a task that finishes, and reindexes',
    async () => {
      const { page, problems } = await openSystem()
      await page.getByRole('button', { name: 'Run GC' }).click()
      const dry = page.getByLabel('GC dry run')
      await expect.poll(() => dry.textContent(), POLL).toMatch(/Would free.+Garbage entries\d+/)

      await page.getByRole('button', { name: 'Collect' }).click()
      const started = page.getByRole('status').filter({ hasText: /GC task \S+ started/ })
      await expect.poll(() => started.count(), POLL).toBe(1)
      const id = /GC task (\S+) started/.exec((await started.textContent()) ?? '')?.[1] as string
      const tasks = page.getByRole('table', { name: 'Tasks' })
      const row = tasks.getByRole('row').filter({ hasText: id })
      // The list polls while the task runs, so its end shows without a reload.
      await expect.poll(() => row.textContent(), POLL).toMatch(/gc\s*completed\s*100 %/)
      expect(await row.getByRole('button', { name: `Cancel ${id}` }).count()).toBe(0)

      await page.getByLabel('Reindex path').fill('/docs')
      await page.getByRole('button', { name: 'Reindex' }).click()
      const reindex = page.getByRole('status').filter({ hasText: /Reindex task \S+ started/ })
      await expect.poll(() => reindex.count(), POLL).toBe(1)
      await expect
        .poll(
          () =>
            tasks
              .getByRole('row')
              .filter({ hasText: /reindex/ })
              .textContent(),
          POLL,
        )
        // No index is configured under /docs: the task fails, and its row says why.
        .toMatch(/reindex\s*failed: \/docs has no index configuration/)
      expect(problems).toEqual([])
      await page.close()
    },
    TIMEOUT_MS,
  )

  it(
    'shows a task started elsewhere while the screen is open, without a reload',
    async () => {
      const { page, problems } = await openSystem()
      const panel = page.getByRole('region', { name: 'Tasks' })
      await expect.poll(() => panel.getByText('Loading…').count(), POLL).toBe(0)
      const rows = panel.getByRole('table', { name: 'Tasks' }).getByRole('row')
      // A mark on the window: a reload would take it away.
      await page.evaluate(() => Object.assign(window, { stillThisPage: true }))

      // Started through the API, not the console: it may well have ended before the list is
      // read again, and the list still has to show it.
      const res = await harness.api('POST', '/system/tasks/gc', { dry_run: true })
      const { id } = (await res.json()) as { id: string }
      await expect.poll(() => rows.filter({ hasText: id }).count(), POLL).toBe(1)
      expect(await rows.filter({ hasText: id }).textContent()).toMatch(/gc/)
      expect(await page.evaluate(() => 'stillThisPage' in window)).toBe(true)
      expect(problems).toEqual([])
      await page.close()
    },
    TIMEOUT_MS,
  )

  it(
    'shows a running task with its progress and ETA, and cancels it',
    async () => {
      const res = await harness.api('POST', '/system/tasks/gc', { dry_run: true })
      const { id } = (await res.json()) as { id: string }
      // A real task ends too fast to be caught running: the list the browser reads shows it
      // running until it is cancelled; the cancel itself goes to the real server, which moves
      // a task in any state to cancelled.
      let cancelled = false
      const { page, problems } = await openSystem(async (page) => {
        await page.route(/\/system\/tasks$/, async (route) => {
          const response = await route.fetch()
          const body = (await response.json()) as { items: Record<string, unknown>[] }
          if (!cancelled) {
            body.items = body.items.map((task) =>
              task.id === id
                ? { ...task, status: 'running', progress: 0.42, eta_ms: 65_000 }
                : task,
            )
          }
          await route.fulfill({ response, json: body })
        })
        page.on('request', (request) => {
          if (request.method() === 'DELETE' && request.url().endsWith(`/system/tasks/${id}`)) {
            cancelled = true
          }
        })
      })
      const row = page
        .getByRole('table', { name: 'Tasks' })
        .getByRole('row')
        .filter({ hasText: id })
      await expect.poll(() => row.textContent(), POLL).toMatch(/running\s*42 %\s*1 min 5 s/)
      expect(
        await row.getByRole('progressbar', { name: `Progress of ${id}` }).getAttribute('value'),
      ).toBe('42')
      await row.getByRole('button', { name: `Cancel ${id}` }).click()
      await expect.poll(() => row.textContent(), POLL).toMatch(/cancelled/)
      expect(
        await page
          .getByRole('status')
          .filter({ hasText: `Task ${id} cancelled` })
          .count(),
      ).toBe(1)
      expect(problems).toEqual([])
      await page.close()
    },
    TIMEOUT_MS,
  )

  it(
    'logs events newest first, filtered by type and path prefix, and holds them while paused',
    async () => {
      const { page, problems } = await openSystem()
      await page.getByLabel('Event type').selectOption('entries_created')
      await page.getByLabel('Path prefix').fill('/logged/')
      await page.getByLabel('Path prefix').press('Enter')
      const log = page.getByRole('table', { name: 'Events' })

      // The stream opens asynchronously: write until a file's event shows.
      let n = 0
      await expect
        .poll(async () => {
          await harness.put(`/logged/f${n++}.txt`, 'x')
          await harness.put(`/elsewhere/f${n}.txt`, 'x')
          return log.getByRole('row').filter({ hasText: '/logged/' }).count()
        }, POLL)
        .toBeGreaterThan(0)
      const rows = await log.getByRole('row').allTextContents()
      expect(rows.some((row) => row.includes('/elsewhere/'))).toBe(false)
      expect(rows.some((row) => row.includes('metrics'))).toBe(false)

      await page.getByRole('button', { name: 'Pause' }).click()
      const before = await log.getByRole('row').count()
      await harness.put('/logged/while-paused.txt', 'x')
      await expect
        .poll(
          () =>
            page
              .getByRole('status')
              .filter({ hasText: /new events held/ })
              .textContent(),
          POLL,
        )
        .toMatch(/^[1-9]\d* new events held/)
      expect(await log.getByText('/logged/while-paused.txt').count()).toBe(0)
      await page.getByRole('button', { name: 'Resume' }).click()
      await expect.poll(() => log.getByText('/logged/while-paused.txt').count(), POLL).toBe(1)
      expect(await log.getByRole('row').count()).toBeGreaterThan(before)
      // Newest first: the file written last is in the first body row.
      expect(await log.getByRole('row').nth(1).textContent()).toContain('/logged/while-paused.txt')
      expect(problems).toEqual([])
      await page.close()
    },
    TIMEOUT_MS,
  )
  it(
    'creates, disables and deletes a cron schedule, and shows the server refusing a bad expression',
    async () => {
      const { page, problems } = await openSystem()
      const form = page.getByRole('form', { name: 'New schedule' })
      await form.getByLabel('Schedule ID').fill('nightly-reindex')
      await form.getByLabel('Cron expression').fill('30 2 * * *')
      await form.getByLabel('Task').selectOption('reindex')
      await form.getByLabel('Path').fill('/docs')
      await form.getByRole('button', { name: 'Create schedule' }).click()
      const table = page.getByRole('table', { name: 'Schedules' })
      const row = table.getByRole('row').filter({ hasText: 'nightly-reindex' })
      await expect
        .poll(() => row.textContent(), POLL)
        .toMatch(/30 2 \* \* \*reindex.*"path":"\/docs".*yes/)

      await row.getByRole('button', { name: 'Disable nightly-reindex' }).click()
      await expect.poll(() => row.textContent(), POLL).toMatch(/no/)

      // Five fields, but not a valid expression: the server's 400 message is shown.
      await form.getByLabel('Schedule ID').fill('broken')
      await form.getByLabel('Cron expression').fill('99 99 * * *')
      await form.getByLabel('Task').selectOption('gc')
      await form.getByRole('button', { name: 'Create schedule' }).click()
      await expect.poll(() => page.getByRole('alert').count(), POLL).toBe(1)
      expect(await table.getByRole('row').filter({ hasText: 'broken' }).count()).toBe(0)

      await row.getByRole('button', { name: 'Delete nightly-reindex' }).click()
      await expect.poll(() => page.getByText('No schedules').count(), POLL).toBe(1)
      expect(problems).toEqual([])
      await page.close()
    },
    TIMEOUT_MS,
  )

  it(
    'edits a schedule’s expression, enabled flag and task, keeping arguments the form does not show',
    async () => {
      const created = await harness.api('POST', '/system/cron', {
        id: 'weekly-backup',
        schedule: '0 3 * * 0',
        task_type: 'backup',
        args: { dir: 'weekly', keep: 3 },
        enabled: true,
      })
      expect(created.status).toBe(201)
      const stored = async () => {
        const res = await harness.api('GET', '/system/cron')
        const { items } = (await res.json()) as { items: Record<string, unknown>[] }
        return items.find((item) => item.id === 'weekly-backup')
      }
      const { page, problems } = await openSystem()
      const row = page
        .getByRole('table', { name: 'Schedules' })
        .getByRole('row')
        .filter({ hasText: 'weekly-backup' })
      await row.getByRole('button', { name: 'Edit weekly-backup' }).click()
      const form = page.getByRole('form', { name: 'Edit schedule weekly-backup' })
      const cron = form.getByLabel('Cron expression')
      // The form starts from the schedule, with the keyboard in its first field.
      expect(await cron.inputValue()).toBe('0 3 * * 0')
      expect(await cron.evaluate((input) => input === document.activeElement)).toBe(true)
      expect(await form.getByLabel('Task').inputValue()).toBe('backup')
      expect(await form.getByLabel('Enabled').isChecked()).toBe(true)

      await cron.fill('15 4 * * 1')
      await form.getByLabel('Enabled').uncheck()
      await form.getByRole('button', { name: 'Save schedule' }).click()
      await expect
        .poll(
          () =>
            page.getByRole('status').filter({ hasText: 'Schedule weekly-backup saved' }).count(),
          POLL,
        )
        .toBe(1)
      await expect.poll(() => form.count(), POLL).toBe(0)
      // The keyboard is back on the button that opened the form.
      const edit = row.getByRole('button', { name: 'Edit weekly-backup' })
      await expect
        .poll(() => edit.evaluate((button) => button === document.activeElement), POLL)
        .toBe(true)
      await expect.poll(() => row.textContent(), POLL).toMatch(/15 4 \* \* 1backup.*no/)
      expect(await stored()).toMatchObject({
        schedule: '15 4 * * 1',
        enabled: false,
        args: { dir: 'weekly', keep: 3 },
      })

      // A refused expression keeps the form open and the schedule as it was.
      await row.getByRole('button', { name: 'Edit weekly-backup' }).click()
      await cron.fill('99 99 * * *')
      await form.getByRole('button', { name: 'Save schedule' }).click()
      await expect.poll(() => page.getByRole('alert').count(), POLL).toBe(1)
      expect(await form.count()).toBe(1)
      expect(await stored()).toMatchObject({ schedule: '15 4 * * 1' })

      // Another task takes its own arguments; Enter in the form saves.
      await cron.fill('0 5 * * *')
      await form.getByLabel('Task').selectOption('gc')
      await form.getByLabel('Dry run').check()
      await form.getByLabel('Enabled').check()
      await cron.press('Enter')
      await expect.poll(() => form.count(), POLL).toBe(0)
      await expect
        .poll(() => row.textContent(), POLL)
        .toMatch(/0 5 \* \* \*gc.*"dry_run":true.*yes/)
      expect(await stored()).toMatchObject({
        schedule: '0 5 * * *',
        task_type: 'gc',
        args: { dry_run: true },
        enabled: true,
      })

      // Cancel leaves it untouched.
      await row.getByRole('button', { name: 'Edit weekly-backup' }).click()
      await cron.fill('1 1 * * *')
      await form.getByRole('button', { name: 'Cancel' }).click()
      await expect.poll(() => form.count(), POLL).toBe(0)
      expect(await stored()).toMatchObject({ schedule: '0 5 * * *' })
      expect(problems).toEqual([])
      await page.close()
    },
    TIMEOUT_MS,
  )

  it(
    'saves the SMTP settings, reads them back with the password masked, and shows a failed test email',
    async () => {
      const { page, problems } = await openSystem()
      const form = page.getByRole('form', { name: 'SMTP settings' })
      await form.getByLabel('SMTP host').fill('127.0.0.1')
      // Port 9 (discard): nothing listens, so the test message cannot be sent.
      await form.getByLabel('Port').fill('9')
      await form.getByLabel('Username').fill('svcdb')
      await form.getByLabel('Password').fill('s3cret')
      await form.getByLabel('From address').fill('db@example.com')
      await form.getByLabel('TLS').uncheck()
      await form.getByRole('button', { name: 'Save email settings' }).click()
      await expect.poll(() => page.getByText('Email settings saved').count(), POLL).toBe(1)

      await page.reload()
      const host = page.getByRole('form', { name: 'SMTP settings' }).getByLabel('SMTP host')
      await expect.poll(() => host.inputValue(), POLL).toBe('127.0.0.1')
      const password = page.getByRole('form', { name: 'SMTP settings' }).getByLabel('Password')
      expect(await password.inputValue()).not.toBe('s3cret')

      await page.getByLabel('Test recipient').fill('someone@example.com')
      await page.getByRole('button', { name: 'Send test email' }).click()
      const alert = page.getByRole('alert')
      await expect.poll(() => alert.count(), { timeout: 40_000 }).toBe(1)
      expect(await alert.textContent()).toMatch(/^Not sent: \S/)
      expect(problems).toEqual([])
      await page.close()
    },
    TIMEOUT_MS,
  )

  it(
    'sends a test email through the SMTP server the form names, which receives it',
    async () => {
      const smtp = await startSmtpTestServer({ users: { svcdb: 's3cret' } })
      try {
        // Settings stored before the page opens: the form shows them, then is changed.
        const stored = await harness.api('PUT', '/system/email-config', {
          provider: 'smtp',
          host: '127.0.0.1',
          port: 9,
          username: 'old',
          password: 'old-password',
          from_address: 'old@example.com',
          tls: false,
        })
        expect(stored.status).toBe(200)
        const { page, problems } = await openSystem()
        const form = page.getByRole('form', { name: 'SMTP settings' })
        await expect.poll(() => form.getByLabel('Port').inputValue(), POLL).toBe('9')
        await form.getByLabel('SMTP host').fill('127.0.0.1')
        await form.getByLabel('Port').fill(String(smtp.port))
        await form.getByLabel('Username').fill('svcdb')
        await form.getByLabel('Password').fill('s3cret')
        await form.getByLabel('From address').fill('db@example.com')
        await form.getByLabel('From name').fill('svcdb console')
        await form.getByLabel('TLS').uncheck()
        await form.getByRole('button', { name: 'Save email settings' }).click()
        await expect.poll(() => page.getByText('Email settings saved').count(), POLL).toBe(1)

        await page.getByLabel('Test recipient').fill('ops@example.com')
        await page.getByRole('button', { name: 'Send test email' }).click()
        const sent = page.getByRole('status').filter({ hasText: /^Sent: / })
        await expect.poll(() => sent.count(), POLL).toBe(1)
        expect(await sent.textContent()).toContain('ops@example.com')
        expect(await page.getByRole('alert').count()).toBe(0)

        // The success message comes after the server accepted the message.
        expect(smtp.received).toHaveLength(1)
        const [mail] = smtp.received
        expect(mail?.to).toEqual(['ops@example.com'])
        expect(mail?.from).toBe('db@example.com')
        expect(mail?.user).toBe('svcdb')
        expect(mail?.header('subject')).toBe('svcdb test email')
        expect(mail?.header('to')).toContain('ops@example.com')
        expect(problems).toEqual([])
        await page.close()
      } finally {
        await smtp.close()
      }
    },
    TIMEOUT_MS,
  )
})
