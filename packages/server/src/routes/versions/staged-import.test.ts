import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { importResultSchema, MAX_IMPORT_BYTES } from '@svcdb/contract'
import { Database } from '@svcdb/engine'
import * as v from 'valibot'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { namedVersionRouteHandlers } from '../named-versions/named-version-route-handlers'
import { errorOf, startTestApp } from '../../../test/kit'
import type { TestApp } from '../../../test/kit'
import { versionRouteHandlers } from './version-route-handlers'

let t: TestApp
let root: ReturnType<TestApp['as']>
let sourceDir: string
let source: Database

beforeEach(async () => {
  t = await startTestApp(({ db, auth }) => [
    ...versionRouteHandlers({ db }),
    ...namedVersionRouteHandlers({ db, auth }),
  ])
  root = t.as(t.rootToken)
  sourceDir = await mkdtemp(join(tmpdir(), 'svcdb-staged-source-'))
  source = await Database.open({ path: sourceDir })
})
afterEach(async () => {
  await source.close()
  await rm(sourceDir, { recursive: true, force: true })
  await t.close()
})

async function archiveOf(generator: AsyncGenerator<Uint8Array>): Promise<Buffer> {
  const parts: Uint8Array[] = []
  for await (const part of generator) parts.push(part)
  return Buffer.concat(parts)
}

/** Incompressible bytes without a random source: the same every run. */
function filler(size: number): Uint8Array {
  const out = new Uint8Array(size)
  let x = 2463534242
  for (let i = 0; i < size; i++) {
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    out[i] = x & 0xff
  }
  return out
}

const STAGED = '/.svcdb/staging/in.svcdb'

describe('POST /versions/import?from= (a staged archive)', () => {
  it('imports an archive over the body limit from a fork, deletes it, and leaves HEAD alone', async () => {
    await source.writeFile('/big.bin', filler(MAX_IMPORT_BYTES + 1024 * 1024))
    const archive = await archiveOf(source.exportArchive())
    expect(archive.length).toBeGreaterThan(MAX_IMPORT_BYTES)
    const tooLarge = await root('/versions/import', {
      method: 'POST',
      body: new Uint8Array(archive),
    })
    expect((await errorOf(tooLarge, 413)).code).toBe('PAYLOAD_TOO_LARGE')

    const head = t.db.head()
    await t.db.forks.create('stage')
    await t.db.fork('stage').writeFile(STAGED, archive)
    const res = await root(`/versions/import?from=${STAGED}&fork=stage&promote=true`, {
      method: 'POST',
    })
    expect(res.status).toBe(200)
    const result = v.parse(importResultSchema, await res.json())
    expect(result.version_hash).toBe(source.head())
    expect(t.db.head()).toBe(source.head())
    expect(t.db.head()).not.toBe(head)
    expect((await t.db.stat('/big.bin')).size).toBe(MAX_IMPORT_BYTES + 1024 * 1024)
    await expect(t.db.fork('stage').stat(STAGED)).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })

  it('applies a staged patch to the HEAD it was made from', async () => {
    await source.writeFile('/a.txt', 'one')
    const base = source.head()
    await t.db.importArchive(await archiveOf(source.exportArchive()), { promote: true })
    await source.writeFile('/b.txt', 'two')
    const patch = await archiveOf(source.diffArchive({ from: base }))
    await t.db.forks.create('stage')
    await t.db.fork('stage').writeFile(STAGED, patch)
    const res = await root(`/versions/import?from=${STAGED}&fork=stage&promote=true`, {
      method: 'POST',
    })
    expect(res.status).toBe(200)
    expect(t.db.head()).toBe(source.head())
  })

  it('deletes the staged file when the import fails, and changes nothing else', async () => {
    await source.writeFile('/a.txt', 'one')
    const corrupt = await archiveOf(source.exportArchive())
    corrupt[2] = (corrupt[2] as number) ^ 0xff
    await t.db.writeFile(STAGED, corrupt)
    const head = t.db.head()
    const res = await root(`/versions/import?from=${STAGED}&promote=true`, { method: 'POST' })
    expect((await errorOf(res, 400)).code).toBe('BAD_REQUEST')
    await expect(t.db.stat(STAGED)).rejects.toMatchObject({ code: 'NOT_FOUND' })
    expect(t.db.head()).not.toBe(head) // the deletion is the only change
    expect((await t.db.stat('/')).hash).toBe(t.db.head())
  })

  it('refuses paths outside the staging directory, a body with from=, and fork= alone', async () => {
    await t.db.writeFile('/keep.txt', 'precious')
    for (const from of ['/keep.txt', '/.svcdb/staging/../../keep.txt', '/.svcdb/staging/a/b']) {
      const res = await root(`/versions/import?from=${encodeURIComponent(from)}`, {
        method: 'POST',
      })
      expect((await errorOf(res, 400)).code, from).toBe('VALIDATION_FAILED')
    }
    const withBody = await root(`/versions/import?from=${STAGED}`, { method: 'POST', body: 'x' })
    expect((await errorOf(withBody, 400)).message).toMatch(/no body/)
    const forkAlone = await root('/versions/import?fork=stage', { method: 'POST', body: 'x' })
    expect((await errorOf(forkAlone, 400)).message).toMatch(/from=/)
    const missing = await root(`/versions/import?from=${STAGED}`, { method: 'POST' })
    expect((await errorOf(missing, 404)).code).toBe('NOT_FOUND')
    expect(new TextDecoder().decode(await t.db.readFile('/keep.txt'))).toBe('precious')
  })
})
