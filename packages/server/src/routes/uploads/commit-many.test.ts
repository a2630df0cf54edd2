import { createHasher } from '@svcdb/engine'
import type { DatabaseChange } from '@svcdb/engine'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { fileRouteHandlers } from '../files/file-route-handlers'
import { errorCode, errorOf, startTestApp } from '../../../test/kit'
import type { TestApp } from '../../../test/kit'
import { uploadRouteHandlers } from './upload-route-handlers'

let kit: TestApp
let changes: DatabaseChange[]

beforeEach(async () => {
  kit = await startTestApp((deps) => [...uploadRouteHandlers(deps), ...fileRouteHandlers(deps)])
  changes = []
  kit.db.onChange((change) => changes.push(change))
})
afterEach(() => kit.close())

const encoder = new TextEncoder()
const post = (body: unknown) => ({ method: 'POST', json: body })
const created = () => changes.filter((c) => c.type === 'entries_created')

interface Sent {
  hash: string
  size: number
}

/** Sends `text` as one chunk as the holder of `token`; returns its reference. */
async function send(token: string, text: string): Promise<Sent> {
  const bytes = encoder.encode(text)
  const hasher = await createHasher('sha256')
  const hash = Buffer.from(hasher.hashDomain('chunk', bytes)).toString('hex')
  const res = await kit.as(token)(`/uploads/chunks/${hash}`, { method: 'PUT', body: bytes })
  expect([200, 201]).toContain(res.status)
  return { hash, size: bytes.length }
}

async function tokenFor(rules: Record<string, string>[], userId?: string): Promise<string> {
  const root = await kit.auth.authenticate(kit.rootToken)
  const key = await kit.auth.keys.create(root, {
    rules,
    ...(userId === undefined ? {} : { userId }),
  })
  return (await kit.auth.exchangeApiKey(key.key)).token
}

/** A user of a group that may create and update below /home, and nothing else. */
async function writerToken(): Promise<string> {
  await kit.auth.groups.create({
    name: 'staff',
    defaultAllow: '/home/**',
    defaultDeny: '',
    queryField: 'tags',
    queryOperator: 'has',
    queryValue: 'staff',
  })
  const user = await kit.auth.users.create({ username: 'ann', tags: ['staff'] })
  return tokenFor([], user.userId)
}

interface CommitManyBody {
  version: string
  files: Record<string, unknown>[]
}

describe('POST /uploads/commit-many', () => {
  it('commits every file as one version, answering each as /uploads/commit does', async () => {
    const root = kit.as(kit.rootToken)
    await kit.db.writeFile('/site/old.txt', 'before')
    const createdAt = (await kit.db.stat('/site/old.txt')).createdAt
    const a = await send(kit.rootToken, 'alpha')
    const b = await send(kit.rootToken, 'beta')
    changes = []
    const before = kit.db.head()
    const res = await root(
      '/uploads/commit-many',
      post({
        files: [
          { path: '/site/a.txt', chunks: [a], content_type: 'text/plain' },
          { path: 'site/deep/ab.bin', chunks: [a, b], metadata: { tag: 'x' } },
          { path: '/site/old.txt', chunks: [b] },
          { path: '/site/empty', chunks: [] },
        ],
      }),
    )
    expect(res.status).toBe(200)
    const body = (await res.json()) as CommitManyBody
    expect(body.version).toBe(kit.db.head())
    expect(body.version).not.toBe(before)
    expect(body.files).toHaveLength(4)
    expect(body.files[0]).toEqual({
      path: '/site/a.txt',
      name: 'a.txt',
      entry_type: 'file',
      size: 5,
      content_type: 'text/plain',
      hash: (await kit.db.stat('/site/a.txt')).hash,
      version: body.version,
      created_at: expect.any(Number),
      updated_at: expect.any(Number),
    })
    expect(body.files[1]).toMatchObject({
      path: '/site/deep/ab.bin',
      name: 'ab.bin',
      size: 9,
      content_type: 'application/octet-stream',
    })
    expect(body.files[2]).toMatchObject({ path: '/site/old.txt', created_at: createdAt })
    expect(body.files.every((f) => f.version === body.version)).toBe(true)
    expect(await (await root('/files/site/deep/ab.bin')).text()).toBe('alphabeta')
    expect(await (await root('/files/site/old.txt')).text()).toBe('beta')
    expect((await kit.db.stat('/site/empty')).size).toBe(0)
    expect((await kit.db.stat('/site/deep/ab.bin')).metadata).toEqual({ tag: 'x' })
    // One version, one event naming every path.
    expect(created()).toHaveLength(1)
    expect(
      (created()[0] as { entries: { path: string }[] }).entries.map((e) => e.path).sort(),
    ).toEqual(['/site/a.txt', '/site/deep/ab.bin', '/site/empty', '/site/old.txt'])
  })

  it('refuses the whole request when one path is denied, storing nothing', async () => {
    const writer = await writerToken()
    const mine = await send(writer, 'mine')
    const before = kit.db.head()
    const res = await kit.as(writer)(
      '/uploads/commit-many',
      post({
        files: [
          { path: '/home/ok.txt', chunks: [mine] },
          { path: '/etc/nope.txt', chunks: [mine] },
        ],
      }),
    )
    expect(await errorCode(res, 403)).toBe('FORBIDDEN')
    expect(kit.db.head()).toBe(before)
    expect(created()).toHaveLength(0)
    // A scoped key's denial looks like absence.
    const scoped = await tokenFor([{ '/home/**': 'cru-l---' }])
    const its = await send(scoped, 'its own')
    const hidden = await kit.as(scoped)(
      '/uploads/commit-many',
      post({
        files: [
          { path: '/home/fine.txt', chunks: [its] },
          { path: '/secret/x.txt', chunks: [its] },
        ],
      }),
    )
    expect(await errorCode(hidden, 404)).toBe('NOT_FOUND')
    expect(kit.db.head()).toBe(before)
    // Updating an existing file needs `u`: a create-only key may add but not replace.
    await kit.db.writeFile('/home/there.txt', 'there')
    const createOnly = await tokenFor([{ '/home/**': 'c-------' }])
    const chunk = await send(createOnly, 'new content')
    const replace = await kit.as(createOnly)(
      '/uploads/commit-many',
      post({
        files: [
          { path: '/home/new.txt', chunks: [chunk] },
          { path: '/home/there.txt', chunks: [chunk] },
        ],
      }),
    )
    expect(await errorCode(replace, 404)).toBe('NOT_FOUND')
    await expect(kit.db.stat('/home/new.txt')).rejects.toThrow()
    const add = await kit.as(createOnly)(
      '/uploads/commit-many',
      post({ files: [{ path: '/home/new.txt', chunks: [chunk] }] }),
    )
    expect(add.status).toBe(200)
  })

  it('needs configure (y) for configuration paths', async () => {
    const writer = await tokenFor([{ '/**': 'cru-l---' }])
    const config = await send(writer, '{"indexes":[]}')
    const res = await kit.as(writer)(
      '/uploads/commit-many',
      post({
        files: [
          { path: '/docs/a.json', chunks: [config] },
          { path: '/docs/.svcdb/indexes.json', chunks: [config] },
        ],
      }),
    )
    expect(await errorCode(res, 404)).toBe('NOT_FOUND')
    await expect(kit.db.stat('/docs/a.json')).rejects.toThrow()
  })

  it('refuses chunks the caller did not send itself (issue 23), storing nothing', async () => {
    await kit.db.writeFile('/hr/salaries.json', '{"ceo":1234567}')
    const stored = await send(kit.rootToken, '{"ceo":1234567}')
    const writer = await writerToken()
    const mine = await send(writer, 'mine')
    const before = kit.db.head()
    changes = []
    const stolen = await kit.as(writer)(
      '/uploads/commit-many',
      post({
        files: [
          { path: '/home/mine.txt', chunks: [mine] },
          { path: '/home/stolen.json', chunks: [stored] },
        ],
      }),
    )
    expect((await errorOf(stolen, 400)).message).toContain('was not sent by this caller')
    const lie = await kit.as(writer)(
      '/uploads/commit-many',
      post({ files: [{ path: '/home/big.txt', chunks: [{ ...mine, size: 200_000 }] }] }),
    )
    expect((await errorOf(lie, 400)).message).toContain('is 4 bytes, not 200000')
    expect(kit.db.head()).toBe(before)
    expect(created()).toHaveLength(0)
  })

  it('refuses more than 10,000 files, bad bodies and a directory in the way', async () => {
    const root = kit.as(kit.rootToken)
    const chunk = await send(kit.rootToken, 'x')
    const before = kit.db.head()
    // 10,001 files of short paths and no chunks fit in 1 MB: the count is what refuses them.
    const tooMany = Array.from({ length: 10_001 }, (_, i) => ({ path: `/${i}`, chunks: [] }))
    const many = await errorOf(await root('/uploads/commit-many', post({ files: tooMany })), 400)
    expect(many.code).toBe('VALIDATION_FAILED')
    expect(JSON.stringify(many)).toContain('at most 10000 files')
    // Over 1 MB of JSON: 413 before anything is parsed.
    const huge = [{ path: `/${'a'.repeat(4000)}`, chunks: Array(20_000).fill(chunk) }]
    expect(await errorCode(await root('/uploads/commit-many', post({ files: huge })), 413)).toBe(
      'PAYLOAD_TOO_LARGE',
    )
    for (const bad of [
      {},
      { files: [] },
      { files: [{ path: '/a' }] },
      { files: [{ path: '/a', chunks: [{ hash: 'zz', size: 1 }] }] },
      { files: [{ path: '/a', chunks: [], metadata: [1] }] },
      { files: [{ path: '/a', chunks: [], content_type: 'text/plain\r\nx: y' }] },
    ])
      expect(await errorCode(await root('/uploads/commit-many', post(bad)), 400)).toBe(
        'VALIDATION_FAILED',
      )
    const badPath = post({ files: [{ path: '/a/../../b', chunks: [chunk] }] })
    expect(await errorCode(await root('/uploads/commit-many', badPath), 400)).toBe('BAD_REQUEST')
    const badHash = post({ files: [{ path: '/a', chunks: [chunk], hash: 'ab'.repeat(32) }] })
    expect(await errorCode(await root('/uploads/commit-many', badHash), 400)).toBe('BAD_REQUEST')
    expect(kit.db.head()).toBe(before)
    expect(created()).toHaveLength(0)
    await kit.db.mkdir('/dir')
    const afterMkdir = kit.db.head()
    changes = []
    const dirInWay = await root(
      '/uploads/commit-many',
      post({
        files: [
          { path: '/ok.txt', chunks: [chunk] },
          { path: '/dir', chunks: [chunk] },
        ],
      }),
    )
    expect(await errorCode(dirInWay, 409)).toBe('CONFLICT')
    await expect(kit.db.stat('/ok.txt')).rejects.toThrow()
    expect(kit.db.head()).toBe(afterMkdir)
    expect(created()).toHaveLength(0)
  })

  it('writes to a fork, leaving HEAD alone, and answers 404 for an unknown fork', async () => {
    const root = kit.as(kit.rootToken)
    const chunk = await send(kit.rootToken, 'on the fork')
    await kit.db.forks.create('draft')
    const head = kit.db.head()
    const res = await root(
      '/uploads/commit-many?fork=draft',
      post({ files: [{ path: '/f/a.txt', chunks: [chunk] }] }),
    )
    expect(res.status).toBe(200)
    expect(kit.db.head()).toBe(head)
    expect(await (await root('/files/f/a.txt?fork=draft')).text()).toBe('on the fork')
    expect(await errorCode(await root('/files/f/a.txt'), 404)).toBe('NOT_FOUND')
    const unknown = await root(
      '/uploads/commit-many?fork=nope',
      post({ files: [{ path: '/f/a.txt', chunks: [chunk] }] }),
    )
    expect(await errorCode(unknown, 404)).toBe('NOT_FOUND')
  })
})
