import { ROOT_USER_ID } from '@svcdb/auth'
import { headLogPageSchema, headMoveSchema, promoteResponseSchema } from '@svcdb/contract'
import * as v from 'valibot'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { fileRouteHandlers } from '../files/file-route-handlers'
import { namedVersionRouteHandlers } from '../named-versions/named-version-route-handlers'
import { errorCode, errorOf, startTestApp } from '../../../test/kit'
import type { TestApp } from '../../../test/kit'
import { versionRouteHandlers } from './version-route-handlers'

let kit: TestApp
let root: ReturnType<TestApp['as']>

beforeEach(async () => {
  kit = await startTestApp((deps) => [
    ...versionRouteHandlers(deps),
    ...namedVersionRouteHandlers(deps),
    ...fileRouteHandlers(deps),
  ])
  root = kit.as(kit.rootToken)
})
afterEach(() => kit.close())

const post = { method: 'POST' }
const readText = async (path: string) => new TextDecoder().decode(await kit.db.readFile(path))

/** A fork `f` made at HEAD, a write on the fork, then a newer write on HEAD. */
async function forkThenWriteOnHead(): Promise<{ base: string; head: string }> {
  await kit.db.writeFile('/a.txt', 'one')
  await kit.db.snapshots.create('s')
  await kit.db.forks.create('f')
  const base = kit.db.head()
  await kit.db.fork('f').writeFile('/f.txt', 'fork')
  await kit.db.writeFile('/newer.txt', 'written on HEAD after the fork')
  return { base, head: kit.db.head() }
}

async function logOf(call: ReturnType<TestApp['as']>, query = '') {
  const res = await call(`/versions/log${query}`)
  expect(res.status).toBe(200)
  return v.parse(headLogPageSchema, await res.json())
}

describe('expect_head', () => {
  it('answers 409 CONFLICT and changes nothing when HEAD moved (promote, fork promote, restore)', async () => {
    const { base, head } = await forkThenWriteOnHead()
    const attempts = [
      root(`/versions/forks/f/promote?expect_head=${base}`, post),
      root(`/versions/promote?hash=${base}&expect_head=${base}`, post),
      root(`/versions/restore?expect_head=${base}`, { ...post, json: { name: 's' } }),
    ]
    for (const res of await Promise.all(attempts)) {
      const error = await errorOf(res, 409)
      expect(error.code).toBe('CONFLICT')
      expect(error.message).toContain(head)
    }
    expect(kit.db.head()).toBe(head)
    expect(await readText('/newer.txt')).toBe('written on HEAD after the fork')
    expect((await logOf(root)).items).toEqual([])
  })

  it('moves HEAD when it matches, and the answers are the spec’s without it', async () => {
    const { base, head } = await forkThenWriteOnHead()
    const promoted = await root(`/versions/forks/f/promote?expect_head=${head}`, post)
    const moved = v.parse(headMoveSchema, await promoted.json())
    expect(moved).toMatchObject({ status: 'promoted', previous: head })

    const plain = await root(`/versions/promote?hash=${head}`, post)
    expect(await plain.json()).toEqual({ status: 'promoted', head })
    v.parse(promoteResponseSchema, { status: 'promoted', head })
    const restored = await root('/versions/restore', { ...post, json: { name: 's' } })
    expect(await restored.json()).toEqual({ status: 'restored', head: base, previous: head })
  })

  it('refuses a malformed expect_head with 400', async () => {
    await forkThenWriteOnHead()
    const res = await root('/versions/forks/f/promote?expect_head=HEAD', post)
    expect(await errorCode(res, 400)).toBe('VALIDATION_FAILED')
  })
})

describe('GET /versions/log', () => {
  it('lists every history-replacing HEAD move newest first, with who did it, in pages', async () => {
    const { head } = await forkThenWriteOnHead()
    const forked = v.parse(
      headMoveSchema,
      await (await root('/versions/forks/f/promote', post)).json(),
    )
    await root(`/versions/promote?hash=${head}`, post) // the undo
    await root('/versions/restore', { ...post, json: { name: 's' } })
    await kit.db.writeFile('/later.txt', 'an ordinary write is not logged')

    const first = await logOf(root, '?limit=2')
    expect(first.items.map((i) => i.cause)).toEqual(['restore', 'promote'])
    expect(first.items[1]).toMatchObject({ head, previous: forked.head, by: ROOT_USER_ID })
    expect(first.cursor).toMatch(/\S/)
    const second = await logOf(root, `?limit=2&cursor=${first.cursor as string}`)
    expect(second.items).toEqual([
      {
        head: forked.head,
        previous: head,
        cause: 'fork_promote',
        at: expect.any(Number),
        by: ROOT_USER_ID,
      },
    ])
    expect(second.cursor).toBeNull()
    for (const item of [...first.items, ...second.items]) {
      expect(item.head).toMatch(/^[0-9a-f]{64}$/)
      expect(item.previous).toMatch(/^[0-9a-f]{64}$/)
    }
  })

  it('refuses a bad limit or cursor with 400', async () => {
    expect(await errorCode(await root('/versions/log?limit=0'), 400)).toBe('VALIDATION_FAILED')
    expect(await errorCode(await root('/versions/log?limit=1001'), 400)).toBe('VALIDATION_FAILED')
    expect(await errorCode(await root('/versions/log?cursor=abc'), 400)).toMatch(/INVALID|BAD/)
  })

  it('takes read on /: a user without it gets 403, a scoped key 404, a share link 404', async () => {
    await forkThenWriteOnHead()
    await root('/versions/forks/f/promote', post)
    const caller = await kit.auth.authenticate(kit.rootToken)
    const tokenOf = async (options: Parameters<typeof kit.auth.keys.create>[1]) =>
      (await kit.auth.exchangeApiKey((await kit.auth.keys.create(caller, options)).key)).token

    const user = await kit.auth.users.create({ username: 'ada' })
    const plain = kit.as(await tokenOf({ userId: user.userId }))
    expect(await errorCode(await plain('/versions/log'), 403)).toBe('FORBIDDEN')

    const scoped = kit.as(
      await tokenOf({ rules: [{ '/eng/**': 'crudl---' }, { '/**': '--------' }] }),
    )
    expect(await errorCode(await scoped('/versions/log'), 404)).toBe('NOT_FOUND')

    const link = await kit.auth.shares.createLink({ paths: ['/'], permissions: '-r--l---' })
    const holder = kit.as((await kit.auth.exchangeApiKey(link.key)).token)
    expect(await errorCode(await holder('/versions/log'), 404)).toBe('NOT_FOUND')

    const reader = kit.as(await tokenOf({ rules: [{ '/**': '-r--l---' }] }))
    expect((await logOf(reader)).items).toHaveLength(1)
  })
})

describe('import with promote', () => {
  it('takes expect_head and records who moved HEAD', async () => {
    await kit.db.writeFile('/a.txt', 'one')
    const exported: Uint8Array[] = []
    for await (const part of kit.db.exportArchive()) exported.push(part)
    const archive = Buffer.concat(exported)
    const first = kit.db.head()
    await kit.db.writeFile('/b.txt', 'two')
    const moved = kit.db.head()
    const refused = await root(`/versions/import?promote=true&expect_head=${first}`, {
      ...post,
      body: archive,
    })
    expect(await errorCode(refused, 409)).toBe('CONFLICT')
    expect(kit.db.head()).toBe(moved)
    const ok = await root(`/versions/import?promote=true&expect_head=${moved}`, {
      ...post,
      body: archive,
    })
    expect(ok.status).toBe(200)
    expect(kit.db.head()).toBe(first)
    const [entry] = (await logOf(root)).items
    expect(entry).toMatchObject({ cause: 'import', head: first, previous: moved, by: ROOT_USER_ID })
  })
})
