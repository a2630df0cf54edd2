import { createServer } from 'node:http'
import type { IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { verifyWebhookSignature } from '@svcdb/events'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { DEFAULT_SERVER_CONFIG } from '../config/server-config'
import { createLogger } from '../logger'
import { openServices } from './open-services'

interface Received {
  headers: IncomingMessage['headers']
  body: string
}

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'svcdb-services-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

/** A real HTTP endpoint on loopback that records the webhooks it receives. */
async function receiver() {
  const received: Received[] = []
  const waiting: ((r: Received) => void)[] = []
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (d: Buffer) => (body += d.toString()))
    req.on('end', () => {
      const r = { headers: req.headers, body }
      received.push(r)
      waiting.shift()?.(r)
      res.writeHead(204).end()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    url,
    received,
    next: () =>
      new Promise<Received>((resolve) =>
        received.length > waiting.length
          ? resolve(received[waiting.length] as Received)
          : waiting.push(resolve),
      ),
    close: () => new Promise((resolve) => server.close(resolve)),
  }
}

describe('openServices', () => {
  it('mints a root key once when asked and delivers webhooks configured in the database', async () => {
    const hook = await receiver()
    const config = { ...DEFAULT_SERVER_CONFIG, dataDir: dir, webhookAllow: ['http://127.0.0.1:*'] }
    const lines: string[] = []
    const logger = createLogger({ level: 'warn', write: (line) => lines.push(line) })
    const services = await openServices(config, logger, {
      baseUrl: () => 'http://localhost',
      stdout: () => undefined,
    })
    expect((await services.auth.ensureRootKey()).rootApiKey).toMatch(/^svc_/)
    try {
      await services.db.writeFile(
        '/.svcdb/webhooks.json',
        JSON.stringify({
          webhooks: [
            {
              id: 'docs',
              url: `${hook.url}/hook`,
              events: ['entries_created'],
              path_prefix: '/docs',
              secret: 'hush-hush-hush-hush',
            },
            {
              id: 'elsewhere',
              url: 'http://203.0.113.9/hook',
              events: ['entries_created'],
              secret: 'another-long-secret',
            },
          ],
        }),
      )
      // The configuration is reloaded right after its commit, asynchronously.
      for (let i = 0; i < 50 && !lines.some((l) => l.includes('webhook elsewhere')); i++)
        await new Promise((resolve) => setTimeout(resolve, 20))
      expect(lines.join('\n')).toMatch(/webhook elsewhere: .*not on the destination allow-list/)
      await services.db.writeFile('/other/skip.txt', 'not delivered')
      await services.db.writeFile('/docs/a.txt', 'delivered')
      const got = await hook.next()
      expect(got.headers['x-svcdb-event']).toBe('entries_created')
      const envelope = JSON.parse(got.body) as { payload: { entries: { path: string }[] } }
      expect(envelope.payload.entries).toEqual([{ path: '/docs/a.txt', entry_type: 'file' }])
      expect(
        await verifyWebhookSignature(
          'hush-hush-hush-hush',
          got.body,
          got.headers['x-svcdb-signature'] as string,
        ),
      ).toBe(true)
      // Counted once the receiver's answer is in, just after it got the request.
      let metrics = ''
      for (let i = 0; i < 50 && !/outcome="delivered"\} 1/.test(metrics); i++) {
        await new Promise((resolve) => setTimeout(resolve, 20))
        metrics = await services.metrics.registry.metrics()
      }
      expect(metrics).toMatch(/svcdb_webhook_deliveries\{outcome="delivered"\} 1/)
      expect(hook.received).toHaveLength(1)
    } finally {
      await services.close()
      await hook.close()
    }
    const again = await openServices(config, createLogger({ level: 'silent' }), {
      baseUrl: () => '',
      stdout: () => undefined,
    })
    expect(await again.auth.ensureRootKey()).toEqual({})
    await again.close()
  })

  it('closed at once (a start that cannot listen) mints no root key and logs nothing', async () => {
    const config = { ...DEFAULT_SERVER_CONFIG, dataDir: dir }
    const lines: string[] = []
    const logger = createLogger({ level: 'debug', write: (line) => lines.push(line) })
    const open = () => openServices(config, logger, { baseUrl: () => '', stdout: () => undefined })
    // The webhook queue was still being read when the database closed under it.
    await (await open()).close()
    expect(lines).toEqual([])
    const next = await open()
    try {
      expect((await next.auth.ensureRootKey()).rootApiKey).toMatch(/^svc_/)
    } finally {
      await next.close()
    }
    expect(lines).toEqual([])
  })

  it('reports health degraded once corrupt content has been met', async () => {
    const config = { ...DEFAULT_SERVER_CONFIG, dataDir: dir, auth: { kind: 'disabled' as const } }
    const services = await openServices(config, createLogger({ level: 'silent' }), {
      baseUrl: () => '',
      stdout: () => undefined,
    })
    try {
      expect(await services.health()).toBe('ok')
      services.observeError(Object.assign(new Error('not found'), { code: 'NOT_FOUND' }))
      expect(await services.health()).toBe('ok')
      services.observeError(Object.assign(new Error('bad bytes'), { code: 'CONTENT_CORRUPT' }))
      expect(await services.health()).toBe('degraded')
      expect(await services.auth.ensureRootKey()).toEqual({})
    } finally {
      await services.close()
    }
  })
})
