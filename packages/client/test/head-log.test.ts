import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createClient } from '../src'
import type { Client } from '../src'
import { startLiveServer } from './live-server'
import type { LiveServer } from './live-server'

let server: LiveServer
let root: Client

beforeAll(async () => {
  server = await startLiveServer()
  root = createClient({ baseUrl: server.url, apiKey: server.rootApiKey })
}, 30_000)
afterAll(async () => {
  await server?.dispose()
})

describe('versions: guarded HEAD moves and the HEAD log', () => {
  it('refuses a fork promote with CONFLICT when HEAD moved, and logs the forced one for undo', async () => {
    await root.files.write('/a.txt', 'one')
    const fork = await root.versions.forks.create('f')
    await root.files.write('/a.txt', 'two', { fork: 'f' })
    await root.files.write('/newer.txt', 'written on HEAD')
    const head = (await root.files.stat('/')).hash

    await expect(root.versions.forks.promote('f', { expectHead: fork.base })).rejects.toMatchObject(
      { code: 'CONFLICT', status: 409 },
    )
    await expect(root.files.readText('/newer.txt')).resolves.toBe('written on HEAD')

    const moved = await root.versions.forks.promote('f', { expectHead: head })
    expect(moved.previous).toBe(head)
    await expect(root.files.readText('/newer.txt')).rejects.toMatchObject({ code: 'NOT_FOUND' })

    const undo = await root.versions.promote(moved.previous, { expectHead: moved.head })
    expect(undo.head).toBe(head)
    await expect(root.files.readText('/newer.txt')).resolves.toBe('written on HEAD')

    const page = await root.versions.log({ limit: 1 })
    expect(page.items).toEqual([
      expect.objectContaining({ cause: 'promote', head, previous: moved.head }),
    ])
    expect(page.cursor).not.toBeNull()
    const all = []
    for await (const item of root.versions.logAll({ limit: 1 })) all.push(item)
    expect(all.map((i) => i.cause)).toEqual(['promote', 'fork_promote'])
  })
})

describe('versions: the entries that differ between two versions', () => {
  it('names what HEAD did since a fork, page by page, and only what the caller may read', async () => {
    await root.files.write('/keep.txt', 'kept')
    const fork = await root.versions.forks.create('g')
    await root.files.write('/pub/one.txt', 'one')
    await root.files.write('/pub/two.txt', 'two')
    await root.files.write('/private.txt', 'not for the scoped key')
    await root.files.delete('/keep.txt')

    const page = await root.versions.changes(fork.base, { limit: 2 })
    expect(page.items).toHaveLength(2)
    expect(page.cursor).not.toBeNull()
    const all = []
    for await (const item of root.versions.changesAll(fork.base, { to: 'HEAD', limit: 1 }))
      all.push(item)
    expect(all).toEqual([
      { path: '/keep.txt', change: 'deleted', type: 'file' },
      { path: '/private.txt', change: 'added', type: 'file' },
      { path: '/pub', change: 'added', type: 'directory' },
    ])

    const key = await root.keys.create({
      label: 'pub reader',
      rules: [{ '/pub': '-r--l---' }, { '/pub/**': '-r--l---' }, { '/**': '--------' }],
    })
    const scoped = createClient({ baseUrl: server.url, apiKey: key.key })
    const seen = []
    for await (const item of scoped.versions.changesAll(fork.base)) seen.push(item.path)
    expect(seen).toEqual(['/pub'])
    await expect(root.versions.changes('no-such-snapshot')).rejects.toMatchObject({
      code: 'NOT_FOUND',
      status: 404,
    })
  })
})
