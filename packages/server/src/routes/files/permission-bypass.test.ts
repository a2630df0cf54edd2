import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { namedVersionRouteHandlers } from '../named-versions/named-version-route-handlers'
import { errorCode, errorOf, startTestApp } from '../../../test/kit'
import type { TestApp } from '../../../test/kit'
import { fileRouteHandlers } from './file-route-handlers'

let kit: TestApp
let member: ReturnType<TestApp['as']>
let root: ReturnType<TestApp['as']>

/** Issue 23, items 2–5: every way around path rules that a black-box pass found. */
beforeEach(async () => {
  kit = await startTestApp((deps) => [
    ...namedVersionRouteHandlers(deps),
    ...fileRouteHandlers(deps),
  ])
  await kit.db.writeFile('/eng/public/p.txt', 'eng public')
  await kit.db.writeFile('/eng/secret/s.txt', 'eng secret')
  await kit.db.writeFile('/secret/s.txt', 'top secret')
  await kit.auth.groups.create({
    name: 'staff',
    defaultAllow: '/**',
    defaultDeny: '/eng/secret/**',
    queryField: 'tags',
    queryOperator: 'has',
    queryValue: 'staff',
  })
  const user = await kit.auth.users.create({ username: 'mallory', tags: ['staff'] })
  member = kit.as(await tokenOf([], user.userId))
  root = kit.as(kit.rootToken)
})
afterEach(() => kit.close())

async function tokenOf(rules: Record<string, string>[], userId?: string): Promise<string> {
  const caller = await kit.auth.authenticate(kit.rootToken)
  const key = await kit.auth.keys.create(caller, {
    rules,
    ...(userId === undefined ? {} : { userId }),
  })
  return (await kit.auth.exchangeApiKey(key.key)).token
}

const post = (json: unknown) => ({ method: 'POST', json })

async function engHash(): Promise<string> {
  const listing = (await (await member('/files/')).json()) as {
    items: { name: string; hash: string }[]
  }
  const eng = listing.items.find((item) => item.name === 'eng')
  if (eng === undefined) throw new Error('no /eng in the listing')
  return eng.hash
}

describe('a directory hash as a version (item 2)', () => {
  it('reads, queries and forks at a directory hash answer 404', async () => {
    const hash = await engHash()
    expect(await errorCode(await member('/files/eng/secret/s.txt'), 403)).toBe('FORBIDDEN')
    const read = await member(`/files/secret/s.txt?version=${hash}`)
    expect(await errorCode(read, 404)).toBe('NOT_FOUND')
    expect(await errorCode(await member(`/files/secret?version=${hash}`), 404)).toBe('NOT_FOUND')
    const query = await member('/files/query', post({ path: '/secret', version: hash }))
    expect(await errorCode(query, 404)).toBe('NOT_FOUND')
    const fork = await member('/versions/forks', post({ name: 'f', base: hash }))
    expect(await errorCode(fork, 404)).toBe('NOT_FOUND')
    // Real versions still work.
    expect(await (await member(`/files/secret/s.txt?version=${kit.db.head()}`)).text()).toBe(
      'top secret',
    )
  })

  it('a share link cannot reach outside its paths through a version hash', async () => {
    const link = await kit.auth.shares.createLink({ paths: ['/secret'], permissions: '-r--l---' })
    const holder = kit.as((await kit.auth.exchangeApiKey(link.key)).token)
    const hash = (await kit.db.stat('/eng')).hash
    expect(await errorCode(await holder(`/files/secret/s.txt?version=${hash}`), 404)).toBe(
      'NOT_FOUND',
    )
  })
})

describe('copy, move and delete of an ancestor (items 3 and 4)', () => {
  it('refuses to copy a directory holding entries the caller may not read', async () => {
    const copy = await member('/files/copy', post({ paths: ['/eng'], destination: '/tmp' }))
    expect(await errorCode(copy, 403)).toBe('FORBIDDEN')
    expect(await errorCode(await root('/files/tmp'), 404)).toBe('NOT_FOUND')
    const ok = await member('/files/copy', post({ paths: ['/eng/public'], destination: '/tmp' }))
    expect(ok.status).toBe(200)
    expect(await (await member('/files/tmp/public/p.txt')).text()).toBe('eng public')
  })

  it('refuses to move protected data out from under its rules', async () => {
    const move = await member('/files/move', post({ from: '/eng', to: '/moved' }))
    expect(await errorCode(move, 403)).toBe('FORBIDDEN')
    expect(await (await root('/files/eng/secret/s.txt')).text()).toBe('eng secret')
    expect(await errorCode(await root('/files/moved'), 404)).toBe('NOT_FOUND')
  })

  it('refuses a recursive delete over entries the caller may not delete', async () => {
    const del = await member('/files/eng?recursive=true', { method: 'DELETE' })
    expect(await errorCode(del, 403)).toBe('FORBIDDEN')
    expect(await (await root('/files/eng/secret/s.txt')).text()).toBe('eng secret')
    const mine = await member('/files/eng/public?recursive=true', { method: 'DELETE' })
    expect(mine.status).toBe(200)
  })

  it('holds a key with two scoped subtrees and a share link with two paths to every entry', async () => {
    const key = kit.as(await tokenOf([{ '/eng/secret/**': '--------' }, { '/**': 'crudl---' }]))
    expect(
      await errorCode(await key('/files/copy', post({ paths: ['/eng'], destination: '/k' })), 403),
    ).toBe('FORBIDDEN')
    expect(await errorCode(await key('/files/eng?recursive=true', { method: 'DELETE' }), 403)).toBe(
      'FORBIDDEN',
    )
    const link = await kit.auth.shares.createLink({
      paths: ['/eng/public', '/drop'],
      permissions: 'crudl---',
    })
    const holder = kit.as((await kit.auth.exchangeApiKey(link.key)).token)
    await kit.db.writeFile('/eng/public/inner/deny.txt', 'x')
    // Allowed everywhere below, though not uniformly by rule: the walk lets it through.
    const moved = await holder('/files/move', post({ from: '/eng/public', to: '/drop/p' }))
    expect(moved.status).toBe(200)
    expect(await (await holder('/files/drop/p/inner/deny.txt')).text()).toBe('x')
  })

  it('walks when rules differ below but all allow, and refuses configuration without y', async () => {
    await kit.db.writeFile('/idx/.svcdb/indexes.json', '{"indexes": []}')
    await kit.db.writeFile('/idx/a.json', '{}')
    const copy = await member('/files/copy', post({ paths: ['/idx'], destination: '/idx2' }))
    expect(await errorCode(copy, 403)).toBe('FORBIDDEN')
    const key = kit.as(await tokenOf([{ '/eng/public/**': 'crudl---' }, { '/**': 'crudl---' }]))
    const walked = await key('/files/copy', post({ paths: ['/eng'], destination: '/w' }))
    expect(walked.status).toBe(200)
    expect(await (await key('/files/w/eng/secret/s.txt')).text()).toBe('eng secret')
  })
})

describe('symlinks (item 5)', () => {
  it('answer the same whether the target is missing or denied', async () => {
    const put = (path: string, target: string) =>
      member(`/links${path}`, { method: 'PUT', json: { target } })
    expect((await put('/mine/denied', '/eng/secret/s.txt')).status).toBe(200)
    expect((await put('/mine/missing', '/eng/secret/none.txt')).status).toBe(200)
    const denied = await errorOf(await member('/files/mine/denied'), 404)
    const missing = await errorOf(await member('/files/mine/missing'), 404)
    expect(denied.code).toBe(missing.code)
    expect(denied.message.replace('denied', 'X')).toBe(missing.message.replace('missing', 'X'))
    expect(denied.message).not.toContain('/eng/secret')
    for (const q of ['?stat=true', '/']) {
      const a = await member(`/files/mine/denied${q}`)
      const b = await member(`/files/mine/missing${q}`)
      expect(a.status).toBe(b.status)
    }
  })
})
