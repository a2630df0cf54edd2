// The browser page: runs the client against the server named in its query string
// (`?server=…&key=…`) and leaves a PageReport on globalThis for the test.
import { createClient, isClientError } from '@svcdb/client'
import { dedupCheck } from './dedup-check'
import { eventCheck } from './event-check'
import { REPORT_KEY } from './page-report'
import type { PageReport, PageResults } from './page-report'

let step = 'start'

async function run(): Promise<PageResults> {
  const query = new URL(location.href).searchParams
  const baseUrl = query.get('server') ?? ''
  const apiKey = query.get('key') ?? ''
  const client = createClient({ baseUrl, apiKey })

  step = 'write'
  const w = await client.files.write('/docs/hello.txt', 'hello from the browser', {
    contentType: 'text/plain',
  })
  await client.files.write('/docs/second.txt', 'another')

  step = 'read'
  const readText = await client.files.readText('/docs/hello.txt')
  const part = await client.files.read('/docs/hello.txt', { range: { start: 6 } })
  if (part === undefined) throw new Error('a plain read answered 304')
  const ranged = {
    text: await new Response(part.body).text(),
    contentRange: part.contentRange,
    totalSize: part.totalSize,
    hash: part.hash,
  }

  step = 'list'
  const listed: string[] = []
  for await (const entry of client.files.list('/docs')) listed.push(entry.name)

  step = 'upload'
  const upload = await dedupCheck(baseUrl, apiKey)

  step = 'events'
  const event = await eventCheck(client)

  step = 'missing'
  const err = await client.files.readText('/docs/missing.txt').then(
    () => undefined,
    (e: unknown) => e,
  )
  const missing = {
    isClientError: isClientError(err),
    code: isClientError(err) ? err.code : String(err),
    status: isClientError(err) ? err.status : -1,
  }

  return {
    written: { path: w.path, size: w.size, hash: w.hash },
    readText,
    ranged,
    listed,
    upload,
    event,
    missing,
  }
}

function report(value: PageReport): void {
  ;(globalThis as Record<string, unknown>)[REPORT_KEY] = value
}

run().then(
  (results) => report({ ok: true, results }),
  (err: unknown) =>
    report({
      ok: false,
      step,
      error: err instanceof Error ? (err.stack ?? err.message) : String(err),
    }),
)
