import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createClient } from '../src'
import type { Client } from '../src'
import { startLiveServer } from './live-server'
import type { LiveServer } from './live-server'

let server: LiveServer
let other: LiveServer
let client: Client
// A second, empty server that archives are imported into.
let target: Client

beforeAll(async () => {
  ;[server, other] = await Promise.all([startLiveServer(), startLiveServer()])
  client = createClient({ baseUrl: server.url, apiKey: server.rootApiKey })
  target = createClient({ baseUrl: other.url, apiKey: other.rootApiKey })
}, 30_000)
afterAll(async () => {
  await Promise.all([server?.dispose(), other?.dispose()])
})

const notFound = { name: 'ClientError', code: 'NOT_FOUND', status: 404 }
const badRequest = { name: 'ClientError', code: 'BAD_REQUEST', status: 400 }

async function bytes(stream: ReadableStream<Uint8Array>): Promise<Uint8Array> {
  return new Uint8Array(await new Response(stream).arrayBuffer())
}

/** The version HEAD points at: the root directory's hash. */
async function head(c: Client): Promise<string> {
  return (await c.files.stat('/')).hash as string
}

describe('versions', () => {
  it('creates, lists, restores and deletes snapshots', async () => {
    await client.files.write('/snap/a.txt', 'first')
    const snap = await client.versions.snapshots.create('snap-1', { metadata: { by: 'test' } })
    expect(snap).toMatchObject({ name: 'snap-1', metadata: { by: 'test' } })
    expect(snap.version).toBe(await head(client))

    await expect(client.versions.snapshots.create('snap-1')).rejects.toMatchObject({
      name: 'ClientError',
      code: 'CONFLICT',
      status: 409,
    })

    await client.files.write('/snap/a.txt', 'second')
    const changed = await head(client)
    expect(await client.files.readText('/snap/a.txt', { snapshot: 'snap-1' })).toBe('first')
    expect((await client.versions.snapshots.list()).map((s) => s.name)).toContain('snap-1')

    const restored = await client.versions.snapshots.restore('snap-1')
    expect(restored).toMatchObject({ head: snap.version, previous: changed })
    expect(await client.files.readText('/snap/a.txt')).toBe('first')

    expect(await client.versions.snapshots.delete('snap-1')).toEqual({
      deleted: true,
      name: 'snap-1',
    })
    expect((await client.versions.snapshots.list()).map((s) => s.name)).not.toContain('snap-1')
    await expect(client.versions.snapshots.delete('snap-1')).rejects.toMatchObject(notFound)
    await expect(client.versions.snapshots.restore('snap-1')).rejects.toMatchObject(notFound)
  })

  it('writes to forks apart from HEAD, then promotes one and abandons the other', async () => {
    await client.files.write('/fork/a.txt', 'at the snapshot')
    const base = await client.versions.snapshots.create('fork-base')
    await client.files.write('/fork/a.txt', 'at head')
    const headBefore = await head(client)

    const feature = await client.versions.forks.create('feature')
    expect(feature).toMatchObject({ name: 'feature', base: headBefore, version: headBefore })
    const old = await client.versions.forks.create('old', { base: 'fork-base' })
    expect(old).toMatchObject({ name: 'old', base: base.version })

    const written = await client.files.write('/fork/b.txt', 'only in the fork', {
      fork: 'feature',
    })
    expect(await head(client)).toBe(headBefore)
    await expect(client.files.readText('/fork/b.txt')).rejects.toMatchObject(notFound)
    expect(await client.files.readText('/fork/b.txt', { fork: 'feature' })).toBe('only in the fork')
    expect(await client.files.readText('/fork/a.txt', { fork: 'old' })).toBe('at the snapshot')

    const forks = await client.versions.forks.list()
    expect(forks.find((f) => f.name === 'feature')?.version).toBe(written.version)
    expect(forks.map((f) => f.name)).toContain('old')

    const promoted = await client.versions.forks.promote('feature')
    expect(promoted).toMatchObject({ head: written.version, previous: headBefore })
    expect(await client.files.readText('/fork/b.txt')).toBe('only in the fork')

    expect(await client.versions.forks.abandon('old')).toEqual({ deleted: true, name: 'old' })
    expect((await client.versions.forks.list()).map((f) => f.name)).not.toContain('old')
    await expect(client.files.write('/fork/c.txt', 'x', { fork: 'old' })).rejects.toMatchObject(
      notFound,
    )
    await expect(client.versions.forks.abandon('old')).rejects.toMatchObject(notFound)
    await expect(
      client.versions.forks.create('lost', { base: 'no-such-snap' }),
    ).rejects.toMatchObject(notFound)
  })

  it('shows a path’s history and restores one file from a snapshot or a version', async () => {
    const one = await client.files.write('/hist/a.txt', 'one')
    await client.versions.snapshots.create('hist-1')
    const two = await client.files.write('/hist/a.txt', 'two!')

    const history = await client.versions.history('/hist/a.txt')
    expect(history[0]).toMatchObject({ change_type: 'modified', hash: two.hash, size: 4 })
    expect(history).toContainEqual(expect.objectContaining({ snapshot: 'hist-1', hash: one.hash }))
    expect(history.at(-1)).toMatchObject({ change_type: 'added', version: one.version })

    await client.versions.restoreFile('/hist/a.txt', { snapshot: 'hist-1' })
    expect(await client.files.readText('/hist/a.txt')).toBe('one')
    await client.versions.restoreFile('/hist/a.txt', { version: two.version })
    expect(await client.files.readText('/hist/a.txt')).toBe('two!')
    await expect(
      client.versions.restoreFile('/hist/a.txt', { snapshot: 'nope' }),
    ).rejects.toMatchObject(notFound)
  })

  it('exports a snapshot that a second server imports as the same version, then a diff', async () => {
    await client.files.write('/arch/keep.txt', 'kept')
    await client.files.write('/arch/drop.txt', 'dropped later')
    await client.files.write('/arch/edit.txt', 'before')
    const snap = await client.versions.snapshots.create('arch-base')

    const exported = await client.versions.export({ snapshot: 'arch-base' })
    expect(exported.filename).toBe(`export-${snap.version.slice(0, 12)}.svcdb`)
    const imported = await target.versions.import(await bytes(exported.body), { promote: true })
    expect(imported).toMatchObject({
      backup_type: 'export',
      version_hash: snap.version,
      head_promoted: true,
    })
    expect(await target.files.readText('/arch/drop.txt')).toBe('dropped later')

    await client.files.write('/arch/edit.txt', 'after')
    await client.files.delete('/arch/drop.txt')
    const changed = await head(client)
    const patch = await bytes((await client.versions.diff('arch-base')).body)
    const applied = await target.versions.import(patch, { promote: true })
    expect(applied).toMatchObject({
      backup_type: 'patch',
      version_hash: changed,
      deletions_applied: 1,
      head_promoted: true,
    })
    expect(await head(target)).toBe(changed)
    expect(await target.files.readText('/arch/edit.txt')).toBe('after')
    await expect(target.files.stat('/arch/drop.txt')).rejects.toMatchObject(notFound)

    // The patch's base is no longer the target's HEAD.
    await expect(target.versions.import(patch)).rejects.toMatchObject(badRequest)
    await expect(target.versions.import(new Uint8Array([1, 2, 3]))).rejects.toMatchObject(
      badRequest,
    )
  })

  it('promotes any stored version by hash, and refuses bad or unknown hashes', async () => {
    const first = await client.files.write('/promote/a.txt', 'old')
    await client.files.write('/promote/a.txt', 'new')
    expect(await client.versions.promote(first.version)).toEqual({
      status: 'promoted',
      head: first.version,
    })
    expect(await client.files.readText('/promote/a.txt')).toBe('old')

    await expect(client.versions.promote('not-a-hash')).rejects.toMatchObject(badRequest)
    await expect(client.versions.promote('a'.repeat(64))).rejects.toMatchObject(notFound)
    await expect(client.versions.export({ hash: 'xyz' })).rejects.toMatchObject(badRequest)
  })
})
