import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createLogger, DEFAULT_SERVER_CONFIG, startServer } from '@svcdb/server'
import type { Benchmark, BenchResult } from '../../../scripts/bench-protocol'
import { launchChromium } from '../../../scripts/launch-chromium'

/** Files in the directory whose listing is timed: a page of a typical project folder. */
const FILES = 200
const RUNS = 5

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number

export const benchmarks: Benchmark[] = [
  {
    name: 'web console in headless Chromium, on loopback',
    async run() {
      const dataDir = await mkdtemp(join(tmpdir(), 'svcdb-bench-console-'))
      const server = await startServer(
        { ...DEFAULT_SERVER_CONFIG, port: 0, dataDir },
        { logger: createLogger({ level: 'silent' }) },
      )
      const key = server.rootApiKey as string
      const browser = await launchChromium()
      try {
        for (let i = 0; i < FILES; i++) {
          await fetch(`${server.url}/files/project/file-${String(i).padStart(3, '0')}.txt`, {
            method: 'PUT',
            headers: { authorization: `Bearer ${key}` },
            body: `file ${i}\n`,
          })
        }
        const firstForm: number[] = []
        const firstListing: number[] = []
        let scriptBytes = 0
        for (let run = 0; run < RUNS; run++) {
          // A fresh context each run: nothing cached, as on a first visit.
          const context = await browser.newContext()
          const page = await context.newPage()
          page.on('response', (res) => {
            // Content-Length is the body as sent (Brotli here); `body()` would be decoded.
            if (run === 0 && res.url().endsWith('.js'))
              scriptBytes += Number(res.headers()['content-length'] ?? 0)
          })
          const started = performance.now()
          await page.goto(`${server.url}/console/#/files/project`)
          await page.getByLabel('API key').waitFor()
          firstForm.push(performance.now() - started)
          const signIn = performance.now()
          await page.getByLabel('API key').fill(key)
          await page.getByRole('button', { name: 'Sign in' }).click()
          await page.getByText(`file-${FILES - 1}.txt`).waitFor()
          firstListing.push(performance.now() - signIn)
          await context.close()
        }
        const rows: BenchResult[] = [
          {
            name: 'first load to the sign-in form (nothing cached)',
            value: median(firstForm),
            unit: 'ms',
            better: 'lower',
            target: 1000,
          },
          {
            name: `sign in to a listing of ${FILES} files on screen`,
            value: median(firstListing),
            unit: 'ms',
            better: 'lower',
            target: 1000,
          },
          {
            name: 'JavaScript transferred (compressed, as served)',
            value: scriptBytes / 1024,
            unit: 'KiB',
            better: 'lower',
            target: 200,
          },
        ]
        return rows
      } finally {
        await browser.close()
        await server.close()
        await rm(dataDir, { recursive: true, force: true })
      }
    },
  },
]
