import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { DEFAULT_SERVER_CONFIG } from '../config/server-config'
import { createLogger } from '../logger'
import type { LogLevel } from '../logger'
import { startServer } from '../start-server'
import type { RunningServer } from '../start-server'
import { requestIdFor } from './access-log'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

let dir: string | undefined
let server: RunningServer | undefined
afterEach(async () => {
  await server?.close()
  if (dir !== undefined) await rm(dir, { recursive: true, force: true })
  server = undefined
  dir = undefined
})

/** A real server on loopback whose log lines are kept. */
async function start(level: LogLevel) {
  dir = await mkdtemp(join(tmpdir(), 'svcdb-access-log-'))
  const lines: Record<string, unknown>[] = []
  const logger = createLogger({
    level,
    format: 'json',
    write: (line) => lines.push(JSON.parse(line) as Record<string, unknown>),
  })
  server = await startServer(
    {
      ...DEFAULT_SERVER_CONFIG,
      port: 0,
      dataDir: dir,
      auth: { kind: 'disabled' },
      logLevel: level,
      corsOrigins: ['https://app.example'],
    },
    { logger },
  )
  const requests = () => lines.filter((l) => l.msg === 'request')
  return { url: server.url, requests }
}

/** Access lines are written once the answer has gone out: wait for the count. */
async function waitFor<T>(read: () => T[], count: number): Promise<T[]> {
  for (let i = 0; i < 200 && read().length < count; i++)
    await new Promise((resolve) => setTimeout(resolve, 5))
  return read()
}

describe('access log and request ids', () => {
  it('logs one line per request with id, method, route, status, bytes and duration', async () => {
    const { url, requests } = await start('info')
    const body = 'x'.repeat(5000)
    const put = await fetch(`${url}/files/docs/a.txt`, { method: 'PUT', body })
    expect(put.status).toBe(201)
    const putId = put.headers.get('x-request-id')
    expect(putId).toMatch(UUID)
    const get = await fetch(`${url}/files/docs/a.txt`, { headers: { 'X-Request-Id': 'trace-42' } })
    expect(await get.text()).toBe(body)
    expect(get.headers.get('x-request-id')).toBe('trace-42')
    const missing = await fetch(`${url}/files/docs/nothing.txt`)
    expect(missing.status).toBe(404)
    await missing.arrayBuffer()

    const lines = await waitFor(requests, 3)
    expect(lines).toHaveLength(3)
    const [putLine, getLine, missingLine] = lines as [
      Record<string, unknown>,
      Record<string, unknown>,
      Record<string, unknown>,
    ]
    expect(putLine).toMatchObject({ level: 'info', requestId: putId, method: 'PUT', status: 201 })
    expect(getLine).toMatchObject({ requestId: 'trace-42', method: 'GET', status: 200 })
    expect(missingLine).toMatchObject({ method: 'GET', status: 404 })
    for (const line of lines) {
      // The route's pattern, never the file's path.
      expect(line.route).toMatch(/^\/files/)
      expect(JSON.stringify(line)).not.toContain('a.txt')
      expect(line.durationMs).toEqual(expect.any(Number))
    }
    // Bytes on the wire: the 5,000-byte body plus the response head.
    expect(getLine.bytes as number).toBeGreaterThan(5000)
    expect(getLine.bytes as number).toBeLessThan(6000)
  })

  it('replaces an unusable X-Request-Id, exposes it to browsers, and names unmatched routes', async () => {
    const { url, requests } = await start('info')
    const res = await fetch(`${url}/no/such/route`, {
      headers: { 'X-Request-Id': 'has spaces and "quotes"', Origin: 'https://app.example' },
    })
    expect(res.status).toBe(404)
    expect(res.headers.get('x-request-id')).toMatch(UUID)
    expect(res.headers.get('access-control-expose-headers')).toContain('x-request-id')
    const body = (await res.json()) as { error: { code: string } }
    expect(body.error.code).toBe('NOT_FOUND')
    const [line] = await waitFor(requests, 1)
    expect(line).toMatchObject({ route: 'unmatched', status: 404 })
  })

  it('writes no access lines above info but still answers the id', async () => {
    const { url, requests } = await start('warn')
    const res = await fetch(`${url}/system/health`)
    expect(res.headers.get('x-request-id')).toMatch(UUID)
    await res.arrayBuffer()
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(requests()).toEqual([])
  })

  it('accepts plain ids up to 128 characters', () => {
    expect(requestIdFor('abc-123_x.y:z')).toBe('abc-123_x.y:z')
    expect(requestIdFor('a'.repeat(128))).toBe('a'.repeat(128))
    expect(requestIdFor('a'.repeat(129))).toMatch(UUID)
    expect(requestIdFor('')).toMatch(UUID)
    expect(requestIdFor('x\ny')).toMatch(UUID)
    expect(requestIdFor(undefined)).toMatch(UUID)
  })
})
