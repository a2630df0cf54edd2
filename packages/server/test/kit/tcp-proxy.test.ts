import { createServer, request } from 'node:http'
import type { IncomingMessage, Server, ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startTcpProxy } from './tcp-proxy'
import type { TcpProxy } from './tcp-proxy'
import { waitUntil } from './wait-until'

let backend: Server
let proxy: TcpProxy
let held: ServerResponse[] = []
const big = Buffer.alloc(4 * 1024 * 1024, 7)

beforeEach(async () => {
  held = []
  backend = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.url === '/big') {
      res.end(big)
      return
    }
    if (req.url === '/hang') {
      // Headers and a first part, then nothing: an open stream the cut must break.
      res.writeHead(200, { 'content-type': 'text/plain' })
      res.write('first')
      held.push(res)
      return
    }
    res.end(`hello ${req.url}`)
  })
  await new Promise<void>((resolve) => backend.listen(0, '127.0.0.1', resolve))
  proxy = await startTcpProxy({
    target: { host: '127.0.0.1', port: (backend.address() as AddressInfo).port },
  })
})
afterEach(async () => {
  await proxy.close()
  for (const res of held) res.destroy()
  backend.closeAllConnections()
  await new Promise((resolve) => backend.close(resolve))
})

/** A GET on a fresh connection: the body, or the network error code. */
function get(path: string): Promise<{ body?: string; code?: string }> {
  return new Promise((resolve) => {
    const req = request(`${proxy.url}${path}`, { agent: false }, (res) => {
      let body = ''
      res.on('data', (d: Buffer) => (body += d.toString()))
      res.on('end', () => resolve({ body }))
      res.on('error', (err: NodeJS.ErrnoException) => resolve({ code: err.code ?? err.message }))
    })
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ code: err.code ?? err.message }))
    req.end()
  })
}

describe('startTcpProxy', () => {
  it('forwards connections to the target', async () => {
    expect(await get('/a')).toEqual({ body: 'hello /a' })
    expect(proxy.forwarded()).toBeGreaterThan('hello /a'.length)
  })

  it('resets open connections on cut and refuses new ones until restored', async () => {
    const broken = new Promise<string>((resolve) => {
      const req = request(`${proxy.url}/hang`, { agent: false }, (res) => {
        res.once('data', () => proxy.cut())
        res.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message))
        res.on('end', () => resolve('ended cleanly'))
      })
      req.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message))
      req.end()
    })
    // A reset, not a clean end nor an HTTP answer.
    expect(await broken).toMatch(/ECONNRESET|aborted/)
    const refused = await get('/b')
    expect(refused.body).toBeUndefined()
    expect(refused.code).toMatch(/ECONNRESET|socket hang up/)
    proxy.restore()
    expect(await get('/c')).toEqual({ body: 'hello /c' })
  })

  it('stalls a transfer in the middle after the given bytes, and resumes it on restore', async () => {
    proxy.stallAfter(64 * 1024)
    let received = 0
    let ended = false
    const done = new Promise<number>((resolve, reject) => {
      const req = request(`${proxy.url}/big`, { agent: false }, (res) => {
        res.on('data', (d: Buffer) => (received += d.length))
        res.on('end', () => {
          ended = true
          resolve(received)
        })
        res.on('error', reject)
      })
      req.on('error', reject)
      req.end()
    })
    // Until the client got all that went through (but the headers): all of it, without a stall.
    await waitUntil(
      'the client to receive what the proxy forwarded',
      () => proxy.forwarded() >= 64 * 1024 && proxy.forwarded() - received < 1024,
    )
    expect(received).toBeLessThan(big.length)
    expect(ended).toBe(false)
    expect(proxy.forwarded()).toBeLessThan(big.length)
    proxy.restore()
    expect(await done).toBe(big.length)
  })
})
