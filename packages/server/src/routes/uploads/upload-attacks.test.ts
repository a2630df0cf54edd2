import { createHasher } from '@svcdb/engine'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { fileRouteHandlers } from '../files/file-route-handlers'
import { errorCode, startTestApp } from '../../../test/kit'
import type { TestApp } from '../../../test/kit'
import { uploadRouteHandlers } from './upload-route-handlers'

let kit: TestApp

beforeEach(async () => {
  kit = await startTestApp((deps) => [...uploadRouteHandlers(deps), ...fileRouteHandlers(deps)])
})
afterEach(() => kit.close())

async function chunkHash(bytes: Uint8Array): Promise<string> {
  const hasher = await createHasher('sha256')
  return Buffer.from(hasher.hashDomain('chunk', bytes)).toString('hex')
}

async function tokenFor(rules: Record<string, string>[], userId?: string): Promise<string> {
  const root = await kit.auth.authenticate(kit.rootToken)
  const key = await kit.auth.keys.create(root, {
    rules,
    ...(userId === undefined ? {} : { userId }),
  })
  return (await kit.auth.exchangeApiKey(key.key)).token
}

async function writerToken(): Promise<string> {
  await kit.auth.groups.create({
    name: 'staff',
    defaultAllow: '/home/**',
    defaultDeny: '',
    queryField: 'tags',
    queryOperator: 'has',
    queryValue: 'staff',
  })
  const user = await kit.auth.users.create({ username: 'mallory', tags: ['staff'] })
  return tokenFor([], user.userId)
}

const post = (body: unknown) => ({ method: 'POST', json: body })

describe('upload attacks (issue 23, items 1 and 6)', () => {
  it('a commit that lies about chunk sizes is refused and every read keeps working', async () => {
    const root = kit.as(kit.rootToken)
    const bytes = new TextEncoder().encode('ten bytes!')
    const h = await chunkHash(bytes)
    expect((await root(`/uploads/chunks/${h}`, { method: 'PUT', body: bytes })).status).toBe(201)
    const lie = {
      path: '/u/boom.bin',
      chunks: [
        { hash: h, size: 200_000 },
        { hash: h, size: 200_000 },
      ],
    }
    expect(await errorCode(await root('/uploads/commit', post(lie)), 400)).toBe('BAD_REQUEST')
    expect(await errorCode(await root('/files/u/boom.bin'), 404)).toBe('NOT_FOUND')
    const honest = {
      path: '/u/ok.bin',
      chunks: [
        { hash: h, size: 10 },
        { hash: h, size: 10 },
      ],
    }
    expect((await root('/uploads/commit', post(honest))).status).toBe(201)
    expect(await (await root('/files/u/ok.bin')).text()).toBe('ten bytes!ten bytes!')
    expect((await root('/files/u/ok.bin', { headers: { range: 'bytes=5-14' } })).status).toBe(206)
  })

  it('a share link or read-only key may neither check, send nor commit chunks', async () => {
    await kit.db.writeFile('/pub/a.txt', 'public')
    const link = await kit.auth.shares.createLink({ paths: ['/pub'], permissions: '-r--l---' })
    const readOnly = await tokenFor([{ '/**': '-r--l---' }])
    const bytes = new TextEncoder().encode('{"ceo":1000000}')
    const h = await chunkHash(bytes)
    for (const token of [(await kit.auth.exchangeApiKey(link.key)).token, readOnly]) {
      const as = kit.as(token)
      expect(await errorCode(await as('/uploads/check', post({ hashes: [h] })), 403)).toBe(
        'FORBIDDEN',
      )
      expect(
        await errorCode(await as(`/uploads/chunks/${h}`, { method: 'PUT', body: bytes }), 403),
      ).toBe('FORBIDDEN')
      const commit = await as(
        '/uploads/commit',
        post({ path: '/pub/x', chunks: [{ hash: h, size: bytes.length }] }),
      )
      // A path the caller may not write looks absent to a scoped key (spec rule 8).
      expect(await errorCode(commit, 404)).toBe('NOT_FOUND')
    }
    expect(await kit.db.missingChunks([h])).toEqual([h])
  })

  it('a writer cannot learn whether content is stored elsewhere, nor materialise it', async () => {
    const secret = new TextEncoder().encode('{"ceo":1234567}')
    await kit.db.writeFile('/hr/salaries.json', secret)
    const h = await chunkHash(secret)
    const guess = await chunkHash(new TextEncoder().encode('{"ceo":7654321}'))
    const mallory = kit.as(await writerToken())
    // Both the stored and the unstored guess look missing.
    const check = await mallory('/uploads/check', post({ hashes: [h, guess] }))
    expect(check.status).toBe(200)
    expect(((await check.json()) as { missing: string[] }).missing.sort()).toEqual(
      [h, guess].sort(),
    )
    // Committing the stored chunk without sending it is refused.
    const commit = await mallory(
      '/uploads/commit',
      post({ path: '/home/stolen.json', chunks: [{ hash: h, size: secret.length }] }),
    )
    expect(await errorCode(commit, 400)).toBe('BAD_REQUEST')
    expect(await errorCode(await mallory('/files/home/stolen.json'), 404)).toBe('NOT_FOUND')
    // Sending the bytes of stored content says "new" all the same: no confirmation.
    const sent = await mallory(`/uploads/chunks/${h}`, { method: 'PUT', body: secret })
    expect(sent.status).toBe(201)
    expect(await sent.json()).toEqual({ hash: h, stored: true })
    // Once sent, the caller's own chunk dedups and commits.
    expect(
      (
        (await (await mallory('/uploads/check', post({ hashes: [h] }))).json()) as {
          missing: string[]
        }
      ).missing,
    ).toEqual([])
    const again = await mallory(`/uploads/chunks/${h}`, { method: 'PUT', body: secret })
    expect(await again.json()).toEqual({ hash: h, stored: false })
    const ok = await mallory(
      '/uploads/commit',
      post({ path: '/home/mine.json', chunks: [{ hash: h, size: secret.length }] }),
    )
    expect(ok.status).toBe(201)
    expect(await (await mallory('/files/home/mine.json')).text()).toBe('{"ceo":1234567}')
  })
})
