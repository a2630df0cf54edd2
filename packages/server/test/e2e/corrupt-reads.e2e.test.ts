import { randomBytes } from 'node:crypto'
import { readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { createHasher } from '@svcdb/engine'
import { afterEach, describe, expect, it } from 'vitest'
import { client, login, startServerProcess } from '../kit/server-process'
import type { ServerProcess } from '../kit/server-process'

/**
 * Issue 23, item 1: no writer, and no damaged byte on disk, may end the process. Each test
 * performs the attack on the built server and then checks it still serves everyone.
 */
let server: ServerProcess | undefined
afterEach(async () => {
  await server?.dispose()
  server = undefined
})

async function rootClient(s: ServerProcess, apiKey: string) {
  return client(s.url, (await login(s.url, apiKey)).token)
}

/** Flips one byte of the first data file holding `marker`; returns the file changed. */
async function flipByteOf(dir: string, marker: Buffer): Promise<string> {
  const files = (await readdir(dir, { recursive: true, withFileTypes: true }))
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
  for (const file of files) {
    const bytes = await readFile(file)
    const at = bytes.indexOf(marker)
    if (at < 0) continue
    bytes[at + 10] = (bytes[at + 10] as number) ^ 0xff
    await writeFile(file, bytes)
    return file
  }
  throw new Error('marker not found in the data directory')
}

async function expectServing(api: ReturnType<typeof client>) {
  expect((await api.get('/system/health')).status).toBe(200)
  expect(await (await api.get('/files/fine.txt')).text()).toBe('fine')
}

describe('reads that used to end the process', () => {
  it('refuses a commit lying about chunk sizes, and the file never becomes readable', async () => {
    server = await startServerProcess()
    const api = await rootClient(server, server.rootApiKey as string)
    await api.put('/files/fine.txt', new TextEncoder().encode('fine'))
    const bytes = new TextEncoder().encode('ten bytes!')
    const hasher = await createHasher('sha256')
    const h = Buffer.from(hasher.hashDomain('chunk', bytes)).toString('hex')
    expect((await api.put(`/uploads/chunks/${h}`, bytes)).status).toBe(201)
    const commit = await api.post('/uploads/commit', {
      path: '/u/boom.bin',
      chunks: [
        { hash: h, size: 200_000 },
        { hash: h, size: 200_000 },
      ],
    })
    expect(commit.status).toBe(400)
    for (const read of [
      api.get('/files/u/boom.bin'),
      api.get('/files/u/boom.bin', { range: 'bytes=150000-250000' }),
    ])
      expect((await read).status).toBe(404)
    await expectServing(api)
  }, 60_000)

  it('answers CONTENT_CORRUPT for a flipped byte in a small file and keeps serving', async () => {
    server = await startServerProcess()
    const apiKey = server.rootApiKey as string
    const dir = server.dataDir
    let api = await rootClient(server, apiKey)
    // One small chunk named twice: both reads of the file fail, the second while the first
    // is awaited, which is how an unhandled rejection used to end the process.
    const content = randomBytes(5000)
    const hash = Buffer.from((await createHasher('sha256')).hashDomain('chunk', content))
    expect((await api.put(`/uploads/chunks/${hash.toString('hex')}`, content)).status).toBe(201)
    const chunk = { hash: hash.toString('hex'), size: content.length }
    const commit = await api.post('/uploads/commit', { path: '/small.bin', chunks: [chunk, chunk] })
    expect(commit.status).toBe(201)
    await api.put('/files/fine.txt', new TextEncoder().encode('fine'))
    // Two restarts move the records from LevelDB's log into a table file.
    for (let i = 0; i < 2; i++) {
      await server.stop()
      server = await startServerProcess([], dir)
    }
    await server.stop()
    await flipByteOf(dir, content.subarray(2000, 2064))
    server = await startServerProcess([], dir)
    api = await rootClient(server, apiKey)
    const read = await api.get('/files/small.bin')
    expect(read.status).toBe(500)
    expect(((await read.json()) as { error: { code: string } }).error.code).toBe('CONTENT_CORRUPT')
    const ranged = await api.get('/files/small.bin', { range: 'bytes=10-20' })
    expect(ranged.status).toBe(500)
    const health = (await (await api.get('/system/health')).json()) as { status: string }
    expect(health.status).toBe('degraded')
    await expectServing(api)
  }, 60_000)

  it('cuts a large file short at a corrupt chunk, reports it, and keeps serving', async () => {
    server = await startServerProcess()
    const apiKey = server.rootApiKey as string
    const dir = server.dataDir
    let api = await rootClient(server, apiKey)
    const content = randomBytes(2 * 1024 * 1024)
    expect((await api.put('/files/large.bin', content)).status).toBe(201)
    await api.put('/files/fine.txt', new TextEncoder().encode('fine'))
    await server.stop()
    await flipByteOf(dir, content.subarray(1_800_000, 1_800_064))
    server = await startServerProcess([], dir)
    api = await rootClient(server, apiKey)
    const read = await api.get('/files/large.bin')
    expect(read.status).toBe(200)
    await expect(read.arrayBuffer()).rejects.toThrow()
    const health = (await (await api.get('/system/health')).json()) as { status: string }
    expect(health.status).toBe('degraded')
    // A range before the damage is served whole.
    const head = await api.get('/files/large.bin', { range: 'bytes=0-99999' })
    expect(head.status).toBe(206)
    expect(Buffer.from(await head.arrayBuffer()).equals(content.subarray(0, 100_000))).toBe(true)
    await expectServing(api)
  }, 60_000)
})
