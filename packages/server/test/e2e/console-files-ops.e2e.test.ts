import { randomBytes } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import type { Page, Route } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CONSOLE_TIMEOUT_MS as TIMEOUT_MS, startConsoleHarness } from './console-harness'
import type { ConsoleHarness, OpenedConsole } from './console-harness'

const WAIT = { timeout: 15_000 }

/** A 1×1 PNG, written by the test so the preview has a real image to decode. */
const PIXEL_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
)

/** The smallest PDF a viewer opens: one empty page. */
const MINIMAL_PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n' +
    '2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n' +
    '3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 72 72]>>endobj\n' +
    'trailer<</Root 1 0 R>>\n%%EOF\n',
)

let harness: ConsoleHarness

/** The bytes at `path` through the API, or the status when there are none. */
async function get(path: string): Promise<Buffer | number> {
  const res = await fetch(`${harness.url}/files${path}`, {
    headers: { authorization: `Bearer ${harness.rootKey}` },
  })
  if (res.status !== 200) return res.status
  return Buffer.from(await res.arrayBuffer())
}

/** A signed-in page of the console showing the directory `dir`, with every page error collected. */
async function openAt(dir: string): Promise<OpenedConsole> {
  const opened = await harness.open({ hash: `#/files${dir}` })
  await expect.poll(() => opened.page.getByRole('table').count(), WAIT).toBe(1)
  return opened
}

/**
 * A page of `/up` with an upload of `name` started that never ends by itself: the server never
 * hears of its chunks. `stalled()` counts the chunk checks held back (one once it has begun).
 */
async function openWithStalledUpload(name: string, content: string) {
  let held = 0
  const opened = await harness.open({
    hash: '#/files/up',
    ignoreFailedLoads: true,
    prepare: (p) =>
      p.route(/\/uploads\/check$/, () => {
        held++
      }),
  })
  await expect.poll(() => opened.page.getByRole('table').count(), WAIT).toBe(1)
  await opened.page
    .getByLabel('Upload', { exact: true })
    .setInputFiles([{ name, mimeType: 'text/plain', buffer: Buffer.from(content) }])
  await expect.poll(() => held, WAIT).toBe(1)
  return { ...opened, stalled: () => held }
}

/** How many rows of the listing are named `name`. */
function rowsNamed(page: Page, name: string) {
  return page.getByRole('table').getByRole('rowheader', { name, exact: true }).count()
}

beforeAll(async () => {
  harness = await startConsoleHarness()
  await harness.put('/up/seed.txt', 'seed\n')
  await harness.put('/ops/a.txt', 'file a\n')
  await harness.put('/ops/c.txt', 'file c\n')
  await harness.put('/pv/notes.txt', 'plain <b>notes</b>\n')
  await harness.put('/pv/data.json', '{"a":[1,2],"b":{"c":"d"}}', 'application/json')
  await harness.put('/pv/pixel.png', PIXEL_PNG, 'image/png')
  await harness.put(
    '/pv/readme.md',
    '# Hello\n\nSome **bold** text <script>window.pwned = 1</script> and [a trap](javascript:alert(1)).\n',
    'text/markdown',
  )
  await harness.put('/big/large.log', 'x'.repeat(1024 * 1024 + 100 * 1024))
  await harness.put('/media/doc.pdf', MINIMAL_PDF, 'application/pdf')
  await harness.put('/media/clip.webm', Buffer.from('not really a video'), 'video/webm')
  await harness.put('/media/tune.ogg', Buffer.from('not really a tune'), 'audio/ogg')
  for (let i = 0; i < 45; i++)
    await harness.put(`/many/f${String(i).padStart(2, '0')}.txt`, `${i}\n`)
  await harness.put('/ln/target/inside.txt', 'inside the target\n')
  await harness.put('/ln/doc.txt', 'the linked document\n')
  await harness.api('PUT', '/links/ln/to-dir', { target: '/ln/target' })
  await harness.api('PUT', '/links/ln/to-doc', { target: '/ln/doc.txt' })
  await harness.api('PUT', '/links/ln/dangling', { target: '/ln/nowhere' })
}, TIMEOUT_MS)

afterAll(() => harness?.close(), TIMEOUT_MS)

describe('the console’s file operations in headless Chromium', () => {
  it(
    'uploads two files through the Upload input with a progress bar, lists them and downloads one byte for byte',
    async () => {
      const { page, problems } = await openAt('/up')
      const big = randomBytes(300 * 1024) // several chunks
      await page.getByLabel('Upload', { exact: true }).setInputFiles([
        { name: 'big.bin', mimeType: 'application/octet-stream', buffer: big },
        { name: 'hello.txt', mimeType: 'text/plain', buffer: Buffer.from('hello, upload\n') },
      ])
      const bar = page.getByRole('progressbar', { name: 'Upload progress' })
      await expect.poll(() => bar.getAttribute('aria-valuenow'), WAIT).toBe('100')
      await expect
        .poll(() => page.getByRole('status').filter({ hasText: 'Uploaded 2 files' }).count(), WAIT)
        .toBe(1)
      await expect.poll(() => rowsNamed(page, 'big.bin'), WAIT).toBe(1)
      await expect.poll(() => rowsNamed(page, 'hello.txt'), WAIT).toBe(1)

      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('link', { name: 'Download big.bin' }).click(),
      ])
      expect(Buffer.compare(await readFile((await download.path()) as string), big)).toBe(0)
      expect(await get('/up/hello.txt')).toEqual(Buffer.from('hello, upload\n'))
      expect(problems).toEqual([])
      await page.close()
    },
    TIMEOUT_MS,
  )

  it(
    'uploads a file dropped onto the listing',
    async () => {
      const { page, problems } = await openAt('/up')
      const dataTransfer = await page.evaluateHandle(() => {
        const transfer = new DataTransfer()
        transfer.items.add(new File(['dropped bytes'], 'dropped.txt', { type: 'text/plain' }))
        return transfer
      })
      const zone = page.getByRole('group', { name: /^Drop files here/ })
      await zone.dispatchEvent('dragover', { dataTransfer })
      await zone.dispatchEvent('drop', { dataTransfer })
      await expect.poll(() => rowsNamed(page, 'dropped.txt'), WAIT).toBe(1)
      expect(await get('/up/dropped.txt')).toEqual(Buffer.from('dropped bytes'))
      expect(problems).toEqual([])
      await page.close()
    },
    TIMEOUT_MS,
  )

  it(
    'creates a directory, refusing a bad name with a message',
    async () => {
      const { page, problems } = await openAt('/ops')
      await page.getByRole('button', { name: 'New directory' }).click()
      const field = page.getByLabel('Directory name')
      await field.fill('a/b')
      await page.getByRole('button', { name: 'Create' }).click()
      await expect.poll(() => page.getByRole('alert').textContent(), WAIT).toMatch(/\//)
      await field.fill('made')
      await field.press('Enter')
      await expect
        .poll(
          () => page.getByRole('table').getByRole('link', { name: 'made', exact: true }).count(),
          WAIT,
        )
        .toBe(1)
      expect(await page.getByLabel('Directory name').count()).toBe(0)
      const listed = await fetch(`${harness.url}/files/ops/made/`, {
        headers: { authorization: `Bearer ${harness.rootKey}` },
      })
      expect(listed.status).toBe(200)
      expect(problems).toEqual([])
      await page.close()
    },
    TIMEOUT_MS,
  )

  it(
    'renames a file to a new path, and shows the server’s refusal of a move into a file',
    async () => {
      await harness.put('/ops/r.txt', 'to rename\n')
      const { page, problems } = await openAt('/ops')
      await page.getByRole('button', { name: 'Rename r.txt' }).click()
      const field = page.getByLabel('New path')
      expect(await field.inputValue()).toBe('r.txt')
      await field.fill('renamed.txt')
      await page.getByRole('button', { name: 'Rename', exact: true }).click()
      await expect.poll(() => rowsNamed(page, 'renamed.txt'), WAIT).toBe(1)
      expect(await rowsNamed(page, 'r.txt')).toBe(0)
      expect(await get('/ops/renamed.txt')).toEqual(Buffer.from('to rename\n'))
      expect(await get('/ops/r.txt')).toBe(404)

      // Moving a file into itself is refused by the server; its message shows.
      await page.getByRole('button', { name: 'Rename renamed.txt' }).click()
      await page.getByLabel('New path').fill('/ops/renamed.txt/inside.txt')
      await page.getByRole('button', { name: 'Rename', exact: true }).click()
      await expect.poll(() => page.getByRole('alert').count(), WAIT).toBe(1)
      expect((await page.getByRole('alert').textContent())?.trim().length).toBeGreaterThan(0)
      expect(problems.filter((p) => !/status of 4\d\d/.test(p))).toEqual([])
      await page.close()
    },
    TIMEOUT_MS,
  )

  it(
    'copies a file into another directory',
    async () => {
      await harness.put('/ops/into/keep.txt', 'kept\n')
      const { page, problems } = await openAt('/ops')
      await page.getByRole('button', { name: 'Copy c.txt' }).click()
      await page.getByLabel('Copy to').fill('into')
      await page.getByRole('button', { name: 'Copy', exact: true }).click()
      await expect
        .poll(() => page.getByRole('status').filter({ hasText: 'Copied' }).count(), WAIT)
        .toBe(1)
      expect(await get('/ops/into/c.txt')).toEqual(Buffer.from('file c\n'))
      expect(await get('/ops/c.txt')).toEqual(Buffer.from('file c\n'))
      expect(problems).toEqual([])
      await page.close()
    },
    TIMEOUT_MS,
  )

  it(
    'deletes only after confirmation in a modal dialog, and not when cancelled',
    async () => {
      await harness.put('/ops/doomed.txt', 'bye\n')
      const { page, problems } = await openAt('/ops')
      await page.getByRole('button', { name: 'Delete doomed.txt' }).click()
      const dialog = page.getByRole('dialog')
      await expect.poll(() => dialog.count(), WAIT).toBe(1)
      expect(await page.evaluate(() => document.querySelector('dialog')?.matches(':modal'))).toBe(
        true,
      )
      expect(await dialog.textContent()).toMatch(/Delete doomed\.txt\?/)
      await dialog.getByRole('button', { name: 'Cancel' }).click()
      await expect.poll(() => dialog.count(), WAIT).toBe(0)
      expect(await get('/ops/doomed.txt')).toEqual(Buffer.from('bye\n'))

      await page.getByRole('button', { name: 'Delete doomed.txt' }).click()
      await dialog.getByRole('button', { name: 'Delete', exact: true }).click()
      await expect.poll(() => rowsNamed(page, 'doomed.txt'), WAIT).toBe(0)
      expect(await get('/ops/doomed.txt')).toBe(404)
      expect(problems).toEqual([])
      await page.close()
    },
    TIMEOUT_MS,
  )

  it(
    'previews text in a pre, JSON pretty-printed, an image, and Markdown rendered without its HTML',
    async () => {
      const { page, problems } = await openAt('/pv')
      const table = page.getByRole('table')

      await table.getByRole('button', { name: 'notes.txt', exact: true }).click()
      const text = page.getByRole('region', { name: 'Preview of notes.txt' })
      await expect.poll(() => text.locator('pre').textContent(), WAIT).toBe('plain <b>notes</b>\n')

      await table.getByRole('button', { name: 'data.json', exact: true }).click()
      const json = page.getByRole('region', { name: 'Preview of data.json' })
      await expect
        .poll(() => json.locator('pre').textContent(), WAIT)
        .toBe(JSON.stringify({ a: [1, 2], b: { c: 'd' } }, null, 2))

      await table.getByRole('button', { name: 'pixel.png', exact: true }).click()
      const image = page.getByRole('region', { name: 'Preview of pixel.png' }).getByRole('img')
      await expect
        .poll(
          () => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth),
          WAIT,
        )
        .toBe(1)
      expect(await image.getAttribute('src')).toMatch(/^blob:/)

      await table.getByRole('button', { name: 'readme.md', exact: true }).click()
      const markdown = page.getByRole('region', { name: 'Preview of readme.md' })
      await expect
        .poll(() => markdown.getByRole('heading', { name: 'Hello' }).count(), WAIT)
        .toBe(1)
      expect(await markdown.locator('strong').textContent()).toBe('bold')
      expect(await markdown.textContent()).toContain('<script>window.pwned = 1</script>')
      expect(await markdown.locator('script').count()).toBe(0)
      expect(await markdown.locator('a').count()).toBe(0) // the javascript: link lost its address
      expect(await page.evaluate(() => 'pwned' in window)).toBe(false)

      await markdown.getByRole('button', { name: 'Close preview' }).click()
      await expect
        .poll(() => page.getByRole('region', { name: /^Preview of/ }).count(), WAIT)
        .toBe(0)
      expect(problems).toEqual([])
      await page.close()
    },
    TIMEOUT_MS,
  )

  it(
    'shows a file’s history and restores an earlier version; shows a symlink as such',
    async () => {
      await harness.put('/hist/h.txt', 'first\n')
      await harness.put('/hist/h.txt', 'second\n')
      const link = await fetch(`${harness.url}/links/hist/link.txt`, {
        method: 'PUT',
        headers: { authorization: `Bearer ${harness.rootKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ target: '/hist/h.txt' }),
      })
      expect(link.status).toBeLessThan(300)
      const { page, problems } = await openAt('/hist')

      const linkRow = page.getByRole('row').filter({ hasText: 'link.txt' })
      await expect
        .poll(() => linkRow.getByRole('cell').first().textContent(), WAIT)
        .toMatch(/symlink\s*→ \/hist\/h\.txt/)

      await page.getByRole('button', { name: 'History of h.txt' }).click()
      const panel = page.getByRole('region', { name: 'History of h.txt' })
      const added = panel.getByRole('row').filter({ hasText: 'added' })
      await expect.poll(() => added.count(), WAIT).toBe(1)
      expect(await panel.getByRole('row').filter({ hasText: 'modified' }).count()).toBe(1)
      await added
        .getByRole('button', { name: /^Restore h\.txt from version [0-9a-f]{12}$/ })
        .click()
      await expect
        .poll(
          () => page.getByRole('status').filter({ hasText: 'Restored /hist/h.txt' }).count(),
          WAIT,
        )
        .toBe(1)
      expect(await get('/hist/h.txt')).toEqual(Buffer.from('first\n'))
      // The restore is a new version of its own, listed on top.
      await expect
        .poll(() => panel.getByRole('row').filter({ hasText: 'modified' }).count(), WAIT)
        .toBe(2)
      expect(problems).toEqual([])
      await page.close()
    },
    TIMEOUT_MS,
  )

  it(
    'previews a PDF in a frame, and audio and video in players, from blob: URLs',
    async () => {
      const { page, problems } = await openAt('/media')
      const table = page.getByRole('table')
      const blobSource = (locator: ReturnType<Page['locator']>) =>
        locator.evaluate((element: HTMLIFrameElement | HTMLMediaElement) => element.src)

      await table.getByRole('button', { name: 'doc.pdf', exact: true }).click()
      const pdf = page.getByRole('region', { name: 'Preview of doc.pdf' }).locator('iframe')
      await expect.poll(() => pdf.count(), WAIT).toBe(1)
      expect(await pdf.getAttribute('title')).toBe('doc.pdf')
      expect(await blobSource(pdf)).toMatch(/^blob:/)

      await table.getByRole('button', { name: 'clip.webm', exact: true }).click()
      const video = page.getByRole('region', { name: 'Preview of clip.webm' }).locator('video')
      await expect.poll(() => video.count(), WAIT).toBe(1)
      expect(await blobSource(video)).toMatch(/^blob:/)
      expect(await video.getAttribute('controls')).not.toBeNull()

      await table.getByRole('button', { name: 'tune.ogg', exact: true }).click()
      const audio = page.getByRole('region', { name: 'Preview of tune.ogg' }).locator('audio')
      await expect.poll(() => audio.count(), WAIT).toBe(1)
      expect(await blobSource(audio)).toMatch(/^blob:/)
      expect(problems).toEqual([])
      await page.close()
    },
    TIMEOUT_MS,
  )

  it(
    'previews only the first MiB of a large text file, and says so',
    async () => {
      const { page, problems } = await openAt('/big')
      await page.getByRole('button', { name: 'large.log', exact: true }).click()
      const region = page.getByRole('region', { name: 'Preview of large.log' })
      await expect.poll(() => region.getByRole('note').count(), WAIT).toBe(1)
      expect(await region.getByRole('note').textContent()).toMatch(/Only the first/)
      expect(await region.locator('pre').evaluate((pre) => pre.textContent?.length)).toBe(
        1024 * 1024,
      )
      expect(problems).toEqual([])
      await page.close()
    },
    TIMEOUT_MS,
  )

  it(
    'works by keyboard: the forms take focus, Enter submits, Escape cancels; the dialog opens on Cancel',
    async () => {
      await harness.put('/keys/k.txt', 'keyboard\n')
      const { page, problems } = await openAt('/keys')
      const focusedLabel = () =>
        page.evaluate(() => document.activeElement?.closest('label')?.textContent?.trim())
      const focusedName = () => page.evaluate(() => document.activeElement?.textContent?.trim())

      await page.getByRole('button', { name: 'Rename k.txt' }).focus()
      await page.keyboard.press('Enter')
      await expect.poll(focusedLabel, WAIT).toBe('New path')
      await page.keyboard.press('Escape')
      await expect.poll(() => page.getByLabel('New path').count(), WAIT).toBe(0)

      await page.getByRole('button', { name: 'Rename k.txt' }).focus()
      await page.keyboard.press('Enter')
      await expect.poll(focusedLabel, WAIT).toBe('New path')
      await page.keyboard.type('typed.txt') // the name is selected: typing replaces it
      await page.keyboard.press('Enter')
      await expect.poll(() => rowsNamed(page, 'typed.txt'), WAIT).toBe(1)

      await page.getByRole('button', { name: 'Delete typed.txt' }).focus()
      await page.keyboard.press('Enter')
      await expect.poll(focusedName, WAIT).toBe('Cancel')
      await page.keyboard.press('Escape')
      await expect.poll(() => page.getByRole('dialog').count(), WAIT).toBe(0)
      expect(await get('/keys/typed.txt')).toEqual(Buffer.from('keyboard\n'))
      expect(problems).toEqual([])
      await page.close()
    },
    TIMEOUT_MS,
  )

  it(
    'pages a large directory as the API pages: the first page, then Load more with its cursor',
    async () => {
      const listed = (await (await harness.api('GET', '/files/many/?limit=1000')).json()) as {
        items: { name: string }[]
        total: number
      }
      const names = listed.items.map((item) => item.name)
      expect(listed.total).toBe(45)
      const { page, problems } = await openAt('/many')
      const shown = () => page.getByRole('table').getByRole('rowheader').allTextContents()
      // The default page holds them all.
      await expect.poll(() => page.getByText('Showing all 45 entries').count(), WAIT).toBe(1)
      expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0)

      await page.getByLabel('Per page').selectOption('20')
      await expect.poll(() => page.getByText('Showing 20 of 45 entries').count(), WAIT).toBe(1)
      expect((await shown()).map((name) => name.trim())).toEqual(names.slice(0, 20))
      await page.getByRole('button', { name: 'Load more' }).click()
      await expect.poll(() => page.getByText('Showing 40 of 45 entries').count(), WAIT).toBe(1)
      await page.getByRole('button', { name: 'Load more' }).click()
      await expect.poll(() => page.getByText('Showing all 45 entries').count(), WAIT).toBe(1)
      expect((await shown()).map((name) => name.trim())).toEqual(names)
      expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0)

      // A change loads the listing again, keeping as many entries as were shown.
      await page.getByRole('button', { name: 'Delete f00.txt' }).click()
      await page.getByRole('dialog').getByRole('button', { name: 'Delete', exact: true }).click()
      await expect.poll(() => page.getByText('Showing all 44 entries').count(), WAIT).toBe(1)
      expect(problems).toEqual([])
      await page.close()
    },
    TIMEOUT_MS,
  )

  it(
    'shows symlinks as such and opens what they point at: a directory, a file, or says it is gone',
    async () => {
      const { page, problems } = await harness.open({ hash: '#/files/ln', ignoreFailedLoads: true })
      const table = page.getByRole('table')
      await expect.poll(() => rowsNamed(page, 'to-dir'), WAIT).toBe(1)
      const typeOf = (name: string) =>
        table
          .getByRole('row')
          .filter({ has: page.getByRole('rowheader', { name, exact: true }) })
          .getByRole('cell')
          .first()
          .textContent()
      expect(await typeOf('to-dir')).toMatch(/symlink\s*→ \/ln\/target/)
      expect(await typeOf('to-doc')).toMatch(/symlink\s*→ \/ln\/doc\.txt/)
      expect(await typeOf('doc.txt')).toMatch(/^\s*file\s*$/)

      await table.getByRole('button', { name: 'to-doc', exact: true }).click()
      const preview = page.getByRole('region', { name: 'Preview of doc.txt' })
      await expect
        .poll(() => preview.locator('pre').textContent(), WAIT)
        .toBe('the linked document\n')

      await table.getByRole('button', { name: 'dangling', exact: true }).click()
      await expect
        .poll(() => page.getByRole('alert').textContent(), WAIT)
        .toBe('dangling points to /ln/nowhere, which is not there.')

      await table.getByRole('button', { name: 'to-dir', exact: true }).click()
      await expect.poll(() => rowsNamed(page, 'inside.txt'), WAIT).toBe(1)
      expect(page.url()).toMatch(/#\/files\/ln\/target$/)
      expect(problems).toEqual([])
      await page.close()
    },
    TIMEOUT_MS,
  )

  it(
    'cancels an upload in progress: nothing is written',
    async () => {
      const { page, problems } = await openWithStalledUpload('never.txt', 'never stored\n')
      await page.getByRole('button', { name: 'Cancel upload' }).click()
      await expect
        .poll(
          () => page.getByRole('status').filter({ hasText: 'Upload to /up cancelled' }).count(),
          WAIT,
        )
        .toBe(1)
      expect(await page.getByRole('progressbar').count()).toBe(0)
      expect(await page.getByLabel('Upload', { exact: true }).isDisabled()).toBe(false)
      expect(await get('/up/never.txt')).toBe(404)
      expect(problems).toEqual([])
      await page.close()
    },
    TIMEOUT_MS,
  )

  it(
    'tells of files dropped while an upload runs, instead of dropping them silently',
    async () => {
      // The first upload waits until it is cancelled.
      const { page, problems, stalled } = await openWithStalledUpload('first.txt', '1\n')
      const dataTransfer = await page.evaluateHandle(() => {
        const transfer = new DataTransfer()
        transfer.items.add(new File(['late'], 'late.txt', { type: 'text/plain' }))
        return transfer
      })
      await page
        .getByRole('group', { name: /^Drop files here/ })
        .dispatchEvent('drop', { dataTransfer })
      const told = page.getByRole('status').filter({ hasText: 'Not uploaded: 1 file came' })
      await expect.poll(() => told.count(), WAIT).toBe(1)
      expect(await told.textContent()).toBe(
        'Not uploaded: 1 file came while another upload runs. Add them again once it is done.',
      )
      await page.getByRole('button', { name: 'Cancel upload' }).click()
      await expect
        .poll(() => page.getByRole('status').filter({ hasText: 'cancelled' }).count(), WAIT)
        .toBe(1)
      expect(stalled()).toBe(1)
      expect(await get('/up/late.txt')).toBe(404)
      expect(problems).toEqual([])
      await page.close()
    },
    TIMEOUT_MS,
  )

  it(
    'keeps an upload in sight and cancellable in another directory; its end reloads only its own',
    async () => {
      const held: Route[] = []
      const listed: string[] = []
      const { page, problems } = await harness.open({
        hash: '#/files/up',
        prepare: async (p) => {
          // Held until the user has moved on, then let through.
          await p.route(/\/uploads\/check$/, (route) => {
            held.push(route)
          })
          p.on('request', (request) => {
            const { pathname } = new URL(request.url())
            if (pathname.startsWith('/files/')) listed.push(pathname)
          })
        },
      })
      await expect.poll(() => page.getByRole('table').count(), WAIT).toBe(1)
      await page
        .getByLabel('Upload', { exact: true })
        .setInputFiles([
          { name: 'travelled.txt', mimeType: 'text/plain', buffer: Buffer.from('travelled\n') },
        ])
      await expect.poll(() => held.length, WAIT).toBe(1)
      await page
        .getByRole('navigation', { name: 'Breadcrumbs' })
        .getByRole('link', { name: '/' })
        .click()
      await page.getByRole('table').getByRole('link', { name: 'ops', exact: true }).click()
      await expect.poll(() => rowsNamed(page, 'a.txt'), WAIT).toBe(1)
      const running = page.getByRole('status').filter({ hasText: 'Uploading 1 file to /up…' })
      expect(await running.count()).toBe(1)
      expect(await page.getByRole('progressbar', { name: 'Upload progress' }).count()).toBe(1)
      expect(await page.getByRole('button', { name: 'Cancel upload' }).count()).toBe(1)

      const before = listed.length
      await (held[0] as Route).continue()
      await expect
        .poll(
          () => page.getByRole('status').filter({ hasText: 'Uploaded 1 file to /up' }).count(),
          WAIT,
        )
        .toBe(1)
      expect(await get('/up/travelled.txt')).toEqual(Buffer.from('travelled\n'))
      // Back in /up the file is listed; the requests come in order, so any reload of /ops the
      // upload's end made would come before this listing of /up.
      await page.goBack()
      await page.goBack()
      await expect.poll(() => rowsNamed(page, 'travelled.txt'), WAIT).toBe(1)
      const since = listed.slice(before)
      const backInUp = since.indexOf('/files/up')
      expect(backInUp).toBeGreaterThan(0)
      expect(since.slice(0, backInUp).filter((path) => path.startsWith('/files/ops'))).toEqual([])
      expect(problems).toEqual([])
      await page.close()
    },
    TIMEOUT_MS,
  )

  it(
    'stops an upload when the Files screen is left: nobody could see or cancel it any more',
    async () => {
      const stalled: string[] = []
      const failed: string[] = []
      const { page, problems } = await harness.open({
        hash: '#/files/up',
        ignoreFailedLoads: true,
        prepare: async (p) => {
          await p.route(/\/uploads\/check$/, (route) => {
            stalled.push(route.request().url())
          })
          p.on('requestfailed', (request) => {
            if (request.url().endsWith('/uploads/check')) failed.push(request.url())
          })
        },
      })
      await expect.poll(() => page.getByRole('table').count(), WAIT).toBe(1)
      await page
        .getByLabel('Upload', { exact: true })
        .setInputFiles([
          { name: 'left-behind.txt', mimeType: 'text/plain', buffer: Buffer.from('left\n') },
        ])
      await expect.poll(() => stalled.length, WAIT).toBe(1)
      await page
        .getByRole('navigation', { name: 'Sections' })
        .getByRole('link', { name: 'Versions' })
        .click()
      await expect.poll(() => failed, WAIT).toEqual(stalled)
      await page.goBack()
      await expect.poll(() => rowsNamed(page, 'seed.txt'), WAIT).toBe(1)
      expect(await page.getByRole('progressbar').count()).toBe(0)
      expect(await get('/up/left-behind.txt')).toBe(404)
      expect(problems).toEqual([])
      await page.close()
    },
    TIMEOUT_MS,
  )

  it(
    'refuses files dropped outside the drop zone, so the browser does not leave for them',
    async () => {
      const { page, problems } = await openAt('/up')
      await expect.poll(() => page.getByLabel('Upload', { exact: true }).count(), WAIT).toBe(1)
      const address = page.url()
      const outcome = await page.evaluate(() => {
        const transfer = new DataTransfer()
        transfer.items.add(new File(['astray'], 'astray.txt', { type: 'text/plain' }))
        const send = (target: Element, type: string) => {
          const event = new DragEvent(type, {
            dataTransfer: transfer,
            bubbles: true,
            cancelable: true,
          })
          target.dispatchEvent(event)
          return { refused: event.defaultPrevented, effect: transfer.dropEffect }
        }
        const heading = document.querySelector('h1') as Element
        const header = document.querySelector('header') as Element
        return {
          overHeading: send(heading, 'dragover'),
          onHeading: send(heading, 'drop'),
          onHeader: send(header, 'drop'),
        }
      })
      expect(outcome).toEqual({
        overHeading: { refused: true, effect: 'none' },
        onHeading: { refused: true, effect: 'none' },
        onHeader: { refused: true, effect: 'none' },
      })
      expect(page.url()).toBe(address)
      expect(await get('/up/astray.txt')).toBe(404)
      expect(problems).toEqual([])
      await page.close()
    },
    TIMEOUT_MS,
  )

  it(
    'offers a download instead of a preview of media over the limit, without fetching it',
    async () => {
      // Zeros: the chunks dedup, so the database stays small while the file is 51 MiB.
      await harness.put('/huge/movie.webm', new Uint8Array(51 * 1024 * 1024), 'video/webm')
      const { page, problems } = await openAt('/huge')
      const fetched: string[] = []
      page.on('request', (request) => {
        if (new URL(request.url()).pathname.startsWith('/files/huge/movie'))
          fetched.push(request.url())
      })
      await page.getByRole('button', { name: 'movie.webm', exact: true }).click()
      const region = page.getByRole('region', { name: 'Preview of movie.webm' })
      await expect.poll(() => region.getByRole('note').count(), WAIT).toBe(1)
      expect(await region.getByRole('note').textContent()).toMatch(
        /Too large to preview: 51(\.0)? MiB, over the 50(\.0)? MiB a preview loads\. Download it instead\./,
      )
      expect(await region.getByRole('button', { name: 'Download movie.webm' }).count()).toBe(1)
      expect(await region.locator('video').count()).toBe(0)
      expect(fetched).toEqual([])
      expect(problems).toEqual([])
      await page.close()
    },
    TIMEOUT_MS,
  )
})
