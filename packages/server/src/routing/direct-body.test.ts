import { createAdaptorServer } from '@hono/node-server'
import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { request } from 'node:http'
import { Hono } from 'hono'
import type { Context } from 'hono'
import { afterEach, describe, expect, it } from 'vitest'
import type { AppEnv } from './app-env'
import { answerWithParts, canAnswerWithParts, withDirectBodies } from './direct-body'

const part = (byte: number, length = 64 * 1024) => new Uint8Array(length).fill(byte)

/** What a test's body generator went through. */
interface Trace {
  yielded: number
  finished: boolean
  returned: boolean
}

async function* traced(parts: Uint8Array[], trace: Trace, failAt?: number) {
  try {
    for (const [i, bytes] of parts.entries()) {
      if (i === failAt) throw new Error(`part ${i} is damaged`)
      trace.yielded++
      yield bytes
    }
    trace.finished = true
  } finally {
    trace.returned = !trace.finished
  }
}

let server: Server | undefined
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined))
  server = undefined
})

/** A real server on loopback answering `/file` with `parts` through the Node adapter. */
async function serve(
  parts: Uint8Array[],
  options: { failAt?: number; after?: (c: Context<AppEnv>) => void } = {},
) {
  const trace: Trace = { yielded: 0, finished: false, returned: false }
  const reported: unknown[] = []
  const app = new Hono<AppEnv>()
  app.use('*', async (c, next) => {
    c.header('X-Before', 'set before the handler')
    await next()
    // As CORS adds `Vary` once the handler answered.
    c.header('Vary', 'Origin', { append: true })
    options.after?.(c)
  })
  app.get('/file', (c) => {
    const length = parts.reduce((sum, p) => sum + p.length, 0)
    return answerWithParts(
      c,
      200,
      { 'Content-Length': String(length), 'Content-Type': 'application/octet-stream' },
      traced(parts, trace, options.failAt),
      (err) => reported.push(err),
    )
  })
  app.get('/ok', (c) => c.text('still serving'))
  app.onError((err, c) => c.json({ error: { code: 'FAILED', message: String(err) } }, 500))
  server = createAdaptorServer({ fetch: withDirectBodies(app.fetch) }) as Server
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return { url: `http://127.0.0.1:${port}`, trace, reported }
}

describe('direct bodies', () => {
  it('writes every part after the headers all middleware set, without its own mark', async () => {
    const parts = [part(1), part(2), part(3, 1000)]
    const { url, trace, reported } = await serve(parts)
    const res = await fetch(`${url}/file`)
    expect(res.status).toBe(200)
    expect(res.headers.get('x-before')).toBe('set before the handler')
    expect(res.headers.get('vary')).toBe('Origin')
    expect(res.headers.get('content-length')).toBe(String(2 * 64 * 1024 + 1000))
    expect([...res.headers.keys()].some((name) => name.startsWith('x-svcdb'))).toBe(false)
    expect(Buffer.from(await res.arrayBuffer()).equals(Buffer.concat(parts))).toBe(true)
    expect(trace).toEqual({ yielded: 3, finished: true, returned: false })
    expect(reported).toEqual([])
  })

  it('answers an error when the first part fails, before any header went out', async () => {
    const { url, reported } = await serve([part(1), part(2)], { failAt: 0 })
    const res = await fetch(`${url}/file`)
    expect(res.status).toBe(500)
    expect(((await res.json()) as { error: { message: string } }).error.message).toContain(
      'part 0 is damaged',
    )
    // Thrown to the app's error handler, not reported as a failure after the headers.
    expect(reported).toEqual([])
  })

  it('cuts the body short and reports a part failing after the headers', async () => {
    const { url, reported } = await serve([part(1), part(2), part(3)], { failAt: 2 })
    const res = await fetch(`${url}/file`)
    expect(res.status).toBe(200)
    await expect(res.arrayBuffer()).rejects.toThrow()
    expect(reported).toHaveLength(1)
    expect(String(reported[0])).toContain('part 2 is damaged')
    expect(await (await fetch(`${url}/ok`)).text()).toBe('still serving')
  })

  it('stops reading when the client goes away', async () => {
    // Parts far larger than the socket buffers: the server is mid-body when the client leaves.
    const parts = Array.from({ length: 64 }, (_, i) => part(i, 1024 * 1024))
    const { url, trace } = await serve(parts)
    await new Promise<void>((resolve, reject) => {
      const req = request(`${url}/file`, (res) => {
        res.once('data', () => {
          req.destroy()
          resolve()
        })
      })
      req.once('error', reject)
      req.end()
    })
    await expect.poll(() => trace.returned).toBe(true)
    expect(trace.finished).toBe(false)
    expect(trace.yielded).toBeLessThan(parts.length)
    expect(await (await fetch(`${url}/ok`)).text()).toBe('still serving')
  })

  it('drops the body of an answer replaced on the way out', async () => {
    const { url, trace } = await serve([part(1), part(2)], {
      after: (c) => {
        // Cleared first, or Hono would copy the file's headers into the new answer.
        c.res = undefined as unknown as Response
        c.res = new Response('replaced', { status: 503 })
      },
    })
    const res = await fetch(`${url}/file`)
    expect(res.status).toBe(503)
    expect(await res.text()).toBe('replaced')
    expect(trace.returned).toBe(true)
  })

  it('is not offered outside the Node adapter', async () => {
    const app = new Hono<AppEnv>()
    app.get('/', (c) => c.text(String(canAnswerWithParts(c))))
    expect(await (await app.request('/')).text()).toBe('false')
  })
})
