import { randomBytes } from 'node:crypto'
import { open, readFile, readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { errorBodySchema } from '@svcdb/contract'
import { Database, isEngineError } from '@svcdb/engine'
import * as v from 'valibot'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createApp } from '../../app'
import { createLogger } from '../../logger'
import { disabledAuthenticator } from '../../routing/principal'
import { writeBackup } from '../../tasks/backup'
import { fileRouteHandlers } from '../files/file-route-handlers'
import { startTestApp } from '../../../test/kit'
import type { TestApp } from '../../../test/kit'
import { ARCHIVE_PREFETCH_BYTES } from './archive-response'
import { versionRouteHandlers } from './version-route-handlers'

/** 2,040 directories below /drop: legal under the 4,096-byte path limit. */
const DEEP_FILE = `/drop${'/a'.repeat(2040)}/x.txt`

/** Every byte of a response body, or the error that cut it, with what arrived before. */
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

describe('exports and backups against a 2,040-level path (issue 23, item 10)', () => {
  let kit: TestApp
  const extra: Database[] = []
  beforeEach(async () => {
    kit = await startTestApp((deps) => [...fileRouteHandlers(deps), ...versionRouteHandlers(deps)])
  })
  afterEach(async () => {
    for (const db of extra.splice(0)) await db.close()
    await kit.close()
  })
  const fresh = async (name: string) => {
    const db = await Database.open({ path: join(kit.dir, name) })
    extra.push(db)
    return db
  }

  it('a share link that may create files writes it; export, diff and backup still restore HEAD', async () => {
    const root = kit.as(kit.rootToken)
    await kit.db.writeFile('/side.txt', 'beside')
    const before = (await kit.db.snapshots.create('before')).version
    const link = await kit.auth.shares.createLink({ paths: ['/drop'], permissions: 'cr--l---' })
    const writer = kit.as((await kit.auth.exchangeApiKey(link.key)).token)
    const put = await writer(`/files${DEEP_FILE}`, { method: 'PUT', body: 'deep' })
    expect(put.status).toBe(201)
    const head = kit.db.head()

    const exported = await root('/versions/export', { method: 'POST' })
    expect(exported.status).toBe(200)
    const restored = await fresh('restored')
    const archive = new Uint8Array(await exported.arrayBuffer())
    expect((await restored.importArchive(archive, { promote: true })).versionHash).toBe(head)
    expect(new TextDecoder().decode(await restored.readFile(DEEP_FILE))).toBe('deep')

    const patch = await root('/versions/diff?from=before', { method: 'POST' })
    expect(patch.status).toBe(200)
    const patched = await fresh('patched')
    await patched.importArchive(
      new Uint8Array(
        await (await root(`/versions/export?hash=${before}`, { method: 'POST' })).arrayBuffer(),
      ),
      { promote: true },
    )
    const applied = await patched.importArchive(new Uint8Array(await patch.arrayBuffer()), {
      promote: true,
    })
    expect(applied.versionHash).toBe(head)

    // The backup task streams the same export to a file.
    const backup = await writeBackup(kit.db, { dir: join(kit.dir, 'backups') })
    const fromBackup = await fresh('from-backup')
    expect((await fromBackup.importArchive(await readFile(backup.file))).versionHash).toBe(head)
  }, 60_000)
})

describe('an export that fails while streaming (issue 23, item 10)', () => {
  let kit: TestApp
  beforeEach(async () => {
    kit = await startTestApp(() => [])
  })
  afterEach(() => kit.close())

  /** Flips one byte of `content` where the pack files on disk hold it. */
  async function corruptStored(dir: string, content: Uint8Array): Promise<void> {
    const packDir = join(dir, 'packs')
    const needle = Buffer.from(content.subarray(1000, 1064))
    for (const name of (await readdir(packDir)).filter((f) => f.endsWith('.pack'))) {
      const path = join(packDir, name)
      const at = (await readFile(path)).indexOf(needle)
      if (at < 0) continue
      const handle = await open(path, 'r+')
      await handle.write(Buffer.from([needle[0]! ^ 0xff]), 0, 1, at)
      await handle.close()
      return
    }
    throw new Error('the content was not found in any pack')
  }

  it('answers JSON when the damage is met before the headers', async () => {
    const dir = join(kit.dir, 'early')
    let db = await Database.open({ path: dir })
    const victim = randomBytes(100_000)
    await db.writeFile('/victim.bin', victim)
    await db.close()
    await corruptStored(dir, victim)
    db = await Database.open({ path: dir })
    const errors: unknown[] = []
    const app = createApp({
      authenticator: disabledAuthenticator,
      handlers: versionRouteHandlers({ db }),
      logger: createLogger({ level: 'silent' }),
      onError: (err) => errors.push(err),
    })
    const res = await app.request('/versions/export', { method: 'POST' })
    expect(res.status).toBe(500)
    expect(v.parse(errorBodySchema, await res.json()).error.code).toBe('CONTENT_CORRUPT')
    await db.close()
  })

  it('after the headers, reports the error and cuts the body before the end frame; import refuses it', async () => {
    const dir = join(kit.dir, 'late')
    let db = await Database.open({ path: dir })
    // Sorted first and larger than the prefetch, so the headers are out before the damage.
    await db.writeFile('/a-intact.bin', randomBytes(ARCHIVE_PREFETCH_BYTES * 2))
    const victim = randomBytes(100_000)
    await db.writeFile('/z-victim.bin', victim)
    await db.close()
    await corruptStored(dir, victim)
    db = await Database.open({ path: dir })
    const errors: unknown[] = []
    const app = createApp({
      authenticator: disabledAuthenticator,
      handlers: versionRouteHandlers({ db }),
      logger: createLogger({ level: 'silent' }),
      onError: (err) => errors.push(err),
    })
    const res = await app.request('/versions/export', { method: 'POST' })
    expect(res.status).toBe(200)
    const { bytes, error } = await drain(res)
    expect(isEngineError(error, 'CONTENT_CORRUPT')).toBe(true)
    expect(errors.some((err) => isEngineError(err, 'CONTENT_CORRUPT'))).toBe(true)
    expect(bytes.length).toBeGreaterThanOrEqual(ARCHIVE_PREFETCH_BYTES)

    const target = await Database.open({ path: join(kit.dir, 'target') })
    const refused = await target.importArchive(bytes).then(
      () => undefined,
      (err: unknown) => err,
    )
    expect(isEngineError(refused, 'INVALID_ARCHIVE')).toBe(true)
    await target.close()
    await db.close()
  })
})
