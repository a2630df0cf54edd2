import { createHash } from 'node:crypto'
import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { client, login, startServerProcess } from '../kit/server-process'
import type { ServerProcess } from '../kit/server-process'

let server: ServerProcess
let token: string

beforeAll(async () => {
  server = await startServerProcess(['--dev'])
  token = (await login(server.url, server.rootApiKey as string)).token
}, 60_000)
afterAll(async () => {
  await server?.dispose()
})

/** Resident memory of a process, from /proc (Linux). */
async function rssOf(pid: number): Promise<number> {
  const { readFile } = await import('node:fs/promises')
  const status = await readFile(`/proc/${pid}/status`, 'utf8')
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024
}

/** Sends one raw request line over a socket (no URL normalisation) and returns the status. */
function rawStatus(path: string): Promise<number> {
  const { hostname, port } = new URL(server.url)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => {
      socket.write(
        `GET ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nConnection: close\r\n\r\n`,
      )
    })
    let text = ''
    socket.on('data', (d: Buffer) => (text += d.toString('latin1')))
    socket.on('end', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1])))
    socket.on('error', reject)
  })
}

describe('files over HTTP (built server)', () => {
  it('refuses raw traversal paths with 400 and never reads outside the tree', async () => {
    const root = client(server.url, token)
    await root.put('/files/inside.txt', new TextEncoder().encode('inside'))
    for (const path of [
      '/files/../etc/passwd',
      '/files/a/%2e%2e/%2e%2e/etc',
      '/files/%2e%2e/x',
      '/files/a%2Fb',
      '/files/a/%00',
      '/files/./inside.txt',
    ]) {
      expect(await rawStatus(path)).toBe(400)
    }
    expect(await rawStatus('/files/inside.txt')).toBe(200)
  })

  it('streams a 2 GB upload in and out with flat memory, hash intact', async () => {
    const size = 2 * 1024 * 1024 * 1024
    const baseline = await rssOf(server.pid)
    let peak = baseline
    const sampler = setInterval(() => {
      void rssOf(server.pid).then((rss) => (peak = Math.max(peak, rss)))
    }, 100)
    const hash = createHash('sha256')
    let sent = 0
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= size) return controller.close()
        const chunk = new Uint8Array(1024 * 1024)
        for (let i = 0; i < chunk.length; i += 4096) chunk[i] = (sent / 4096 + i) & 0xff
        hash.update(chunk)
        sent += chunk.length
        controller.enqueue(chunk)
      },
    })
    const put = await fetch(`${server.url}/files/big.bin`, {
      method: 'PUT',
      body,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
      duplex: 'half',
    } as RequestInit)
    expect(put.status).toBe(201)
    const expected = hash.digest('hex')
    const got = await fetch(`${server.url}/files/big.bin`, {
      headers: { authorization: `Bearer ${token}` },
    })
    expect(got.headers.get('content-length')).toBe(String(size))
    const back = createHash('sha256')
    let received = 0
    for await (const part of got.body as unknown as AsyncIterable<Uint8Array>) {
      back.update(part)
      received += part.length
    }
    clearInterval(sampler)
    expect(received).toBe(size)
    expect(back.digest('hex')).toBe(expected)
    // Memory per upload is bounded by the chunker window, never the file: far below 2 GB.
    expect(peak - baseline).toBeLessThan(256 * 1024 * 1024)
  }, 300_000)
})
