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
