import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createClient, isClientError } from '../src'
import type { Client } from '../src'
import { startLiveServer } from './live-server'
import type { LiveServer } from './live-server'

let server: LiveServer
let client: Client

beforeAll(async () => {
  server = await startLiveServer()
  client = createClient({ baseUrl: server.url, apiKey: server.rootApiKey })
}, 30_000)
afterAll(async () => {
  await server?.dispose()
})

describe('files.exists', () => {
  it('answers true for files, directories and followed symlinks, false for nothing there', async () => {
    await client.files.write('/e/a.txt', 'a')
    await client.files.symlink('/e/link', '/e/a.txt')
    await client.files.symlink('/e/dangling', '/e/gone.txt')
    expect(await client.files.exists('/e/a.txt')).toBe(true)
    expect(await client.files.exists('/e')).toBe(true)
    expect(await client.files.exists('/e/link')).toBe(true)
    expect(await client.files.exists('/e/missing.txt')).toBe(false)
    expect(await client.files.exists('/e/dangling')).toBe(false)
  })

  it('looks at the version asked for', async () => {
    await client.files.write('/v/old.txt', 'old')
    await client.versions.snapshots.create('before-delete')
    await client.files.delete('/v/old.txt')
    expect(await client.files.exists('/v/old.txt')).toBe(false)
    expect(await client.files.exists('/v/old.txt', { snapshot: 'before-delete' })).toBe(true)
  })

  it('still throws for failures that are not "nothing there"', async () => {
    const user = await client.users.create({ username: 'nobody-special' })
    const key = await client.keys.createAdmin({ user_id: user.user_id })
    const stranger = createClient({ baseUrl: server.url, apiKey: key.api_key })
    await client.files.write('/private/x.txt', 'x')
    await expect(stranger.files.exists('/private/x.txt')).rejects.toMatchObject({
      code: 'FORBIDDEN',
      status: 403,
    })
    await expect(client.files.exists('/e/a.txt', { version: 'not-a-hash' })).rejects.toMatchObject({
      status: 400,
    })
  })
})

describe('files.readText and files.readJson', () => {
  it('reads text as UTF-8 and JSON as the value written', async () => {
    const doc = { name: 'ünïcode ✓', list: [1, 2, 3], nested: { ok: true } }
    await client.files.write('/j/doc.json', JSON.stringify(doc))
    expect(await client.files.readText('/j/doc.json')).toBe(JSON.stringify(doc))
    expect(await client.files.readJson<typeof doc>('/j/doc.json')).toEqual(doc)
  })

  it('fails with INVALID_JSON naming the path when the file is not JSON', async () => {
    await client.files.write('/j/notes.md', '# not json')
    const err = await client.files.readJson('/j/notes.md').catch((e: unknown) => e)
    expect(isClientError(err, 'INVALID_JSON')).toBe(true)
    expect((err as Error).message).toMatch(/^\/j\/notes\.md is not JSON/)
    expect((err as Error).cause).toBeInstanceOf(SyntaxError)
  })

  it('fails with NOT_FOUND for a missing file', async () => {
    await expect(client.files.readJson('/j/missing.json')).rejects.toMatchObject({
      code: 'NOT_FOUND',
      status: 404,
    })
  })
})
