import { randomBytes } from 'node:crypto'
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Database, isEngineError } from '@svcdb/engine'
import { afterEach, describe, expect, it } from 'vitest'
import { client, login, startServerProcess } from '../kit/server-process'
import type { ServerProcess } from '../kit/server-process'

/**
 * Issue 23, item 10: any writer could break exports and backups with a very deep path, and
 * a failure while streaming answered 200 and then cut the archive. Both against the built
 * server over real HTTP.
 */
let server: ServerProcess | undefined
let scratch: string | undefined
afterEach(async () => {
  await server?.dispose()
  server = undefined
  if (scratch !== undefined) await rm(scratch, { recursive: true, force: true })
  scratch = undefined
})

/** Imports `archive` into a fresh database on disk: the error, or the text at `path`. */
async function importElsewhere(
  archive: Uint8Array,
  path: string,
): Promise<{ error: unknown; text?: string }> {
  scratch = await mkdtemp(join(tmpdir(), 'svcdb-e2e-import-'))
  const db = await Database.open({ path: scratch })
  try {
    await db.importArchive(archive, { promote: true })
    return { error: undefined, text: new TextDecoder().decode(await db.readFile(path)) }
  } catch (error) {
    return { error }
  } finally {
    await db.close()
  }
}

/** Every byte of a response body, and the error that cut it, if any. */
async function drain(res: Response): Promise<{ bytes: Uint8Array; error: unknown }> {
  const reader = (res.body as ReadableStream<Uint8Array>).getReader()
  const parts: Uint8Array[] = []
  for (;;) {
    try {
      const next = await reader.read()
      if (next.done) return { bytes: Buffer.concat(parts), error: undefined }
      parts.push(next.value)
    } catch (error) {
      return { bytes: Buffer.concat(parts), error }
    }
  }
}

describe('archive streams of the built server', () => {
  it('exports a 2,040-level path written through a share link, whole', async () => {
    server = await startServerProcess()
    const root = client(server.url, (await login(server.url, server.rootApiKey as string)).token)
    expect((await root.put('/files/side.txt', new TextEncoder().encode('side'))).status).toBe(201)
    const created = await root.post('/files/share-link', {
      paths: ['/drop'],
      permissions: 'cr--l---',
    })
    expect(created.status).toBe(201)
    const { key } = (await created.json()) as { key: string }
    const writer = client(server.url, (await login(server.url, key)).token)
    const deep = `/drop${'/a'.repeat(2040)}/x.txt`
    expect((await writer.put(`/files${deep}`, new TextEncoder().encode('deep'))).status).toBe(201)

    const exported = await root.post('/versions/export')
    expect(exported.status).toBe(200)
    const { bytes, error } = await drain(exported)
    expect(error).toBeUndefined()
    expect(await importElsewhere(bytes, deep)).toEqual({ error: undefined, text: 'deep' })
    expect((await root.get('/system/health')).status).toBe(200)
  }, 60_000)

  it('cuts an export that meets a damaged chunk after the headers, and keeps serving', async () => {
    server = await startServerProcess()
    const apiKey = server.rootApiKey as string
    const dir = server.dataDir
    let root = client(server.url, (await login(server.url, apiKey)).token)
    // Sorted first and larger than what is produced before the headers.
    expect((await root.put('/files/a-intact.bin', randomBytes(1 << 20))).status).toBe(201)
    const victim = randomBytes(200_000)
    expect((await root.put('/files/z-victim.bin', victim)).status).toBe(201)
    await server.stop()
    await flipByteOf(dir, victim.subarray(50_000, 50_064))
    server = await startServerProcess([], dir)
    root = client(server.url, (await login(server.url, apiKey)).token)

    const exported = await root.post('/versions/export')
    expect(exported.status).toBe(200)
    const { bytes, error } = await drain(exported)
    // The connection is aborted before the chunked terminator: the client sees an error...
    expect(error).toBeInstanceOf(Error)
    // ...and the archive it kept has no end frame, so no import accepts it.
    const imported = await importElsewhere(bytes, '/a-intact.bin')
    expect(isEngineError(imported.error, 'INVALID_ARCHIVE')).toBe(true)
    expect((await root.get('/system/health')).status).toBe(200)
    expect(await (await root.get('/files/a-intact.bin')).arrayBuffer()).toHaveProperty(
      'byteLength',
      1 << 20,
    )
  }, 60_000)
})

/** Flips one byte of the data file holding `marker`. */
async function flipByteOf(dir: string, marker: Uint8Array): Promise<void> {
  const files = (await readdir(dir, { recursive: true, withFileTypes: true }))
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
  for (const file of files) {
    const bytes = await readFile(file)
    const at = bytes.indexOf(marker)
    if (at < 0) continue
    bytes[at] = (bytes[at] as number) ^ 0xff
    await writeFile(file, bytes)
    return
  }
  throw new Error('marker not found in the data directory')
}
