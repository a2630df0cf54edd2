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
  await root.files.write('/pub/a.txt', 'public')
  await root.files.write('/priv/a.txt', 'private')
}, 30_000)
afterAll(async () => {
  await server?.dispose()
})

const notFound = { name: 'ClientError', code: 'NOT_FOUND', status: 404 }

describe('files.shares', () => {
  it('shares a path with a user, lists the share and takes it back', async () => {
    const user = await root.users.create({ username: 'reader' })
    const key = await root.keys.createAdmin({ user_id: user.user_id })
    const reader = createClient({ baseUrl: server.url, apiKey: key.api_key })
    await expect(reader.files.readText('/priv/a.txt')).rejects.toMatchObject({
      code: 'FORBIDDEN',
      status: 403,
    })

    const shared = await root.files.shares.share({
      paths: ['/priv'],
      users: [user.user_id],
      permissions: '-r--l---',
    })
    expect(shared.items).toEqual([
      expect.objectContaining({ path: '/priv', user_id: user.user_id, permissions: '-r--l---' }),
    ])
    expect(await reader.files.readText('/priv/a.txt')).toBe('private')
    expect(await root.files.shares.list('/priv')).toEqual(shared.items)
    expect(await root.files.shares.list('/pub')).toEqual([])

    expect(await root.files.shares.unshare({ path: '/priv', user: user.user_id })).toEqual({
      removed: 1,
    })
    expect(await root.files.shares.list()).toEqual([])
    await expect(
      root.files.shares.share({ paths: ['/priv'], permissions: '-r--l---' }),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED' })
  })

  it('makes a share link whose key reads only the shared paths, until revoked', async () => {
    const link = await root.files.shares.createLink({
      paths: ['/pub'],
      permissions: '-r--l---',
      expires_in_days: 7,
    })
    expect(link).toMatchObject({ paths: ['/pub'], permissions: '-r--l---' })
    expect(link.expires_at).toBeGreaterThan(Date.now() + 6 * 86_400_000)

    const visitor = createClient({ baseUrl: server.url, apiKey: link.key })
    expect(await visitor.files.readText('/pub/a.txt')).toBe('public')
    const names: string[] = []
    for await (const entry of visitor.files.list('/pub')) names.push(entry.path)
    expect(names).toEqual(['/pub/a.txt'])
    // Outside its rules a scoped key learns nothing, not even that the path exists.
    await expect(visitor.files.readText('/priv/a.txt')).rejects.toMatchObject(notFound)
    await expect(visitor.files.write('/pub/b.txt', 'no')).rejects.toMatchObject(notFound)

    const links = await root.files.shares.listLinks('/pub')
    expect(links.map((l) => l.key_id)).toEqual([link.key_id])
    expect(links[0]).not.toHaveProperty('key')

    expect(await root.files.shares.revokeLink(link.key_id)).toEqual({
      revoked: true,
      key_id: link.key_id,
    })
    expect(await root.files.shares.listLinks()).toEqual([])
    await expect(visitor.files.readText('/pub/a.txt')).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
      status: 401,
    })
  })
})
