import type { Auth } from '@svcdb/auth'
import { queryResultSchema } from '@svcdb/contract'
import type { Database } from '@svcdb/engine'
import * as v from 'valibot'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { fileRouteHandlers } from './file-route-handlers'
import { errorOf, startTestApp } from '../../../test/kit'
import type { TestApp } from '../../../test/kit'

let kit: TestApp
let db: Database
let auth: Auth
let app: TestApp['app']
let rootToken: string

beforeEach(async () => {
  kit = await startTestApp((deps) => fileRouteHandlers(deps))
  ;({ db, auth, app, rootToken } = kit)
  await db.writeFile(
    '/tickets/.svcdb/indexes.json',
    JSON.stringify({
      glob: '*.json',
      indexes: [
        { field: '/state', type: 'string' },
        { field: '/rank', type: 'number' },
      ],
    }),
  )
  for (const [name, doc] of Object.entries({
    't1.json': { state: 'open', rank: 3 },
    't2.json': { state: 'done', rank: 1 },
    't3.json': { state: 'open', rank: 2 },
    'secret.json': { state: 'open', rank: 9 },
  }))
    await db.writeFile(`/tickets/${name}`, JSON.stringify(doc))
})
afterEach(() => kit.close())

const post = (token: string, json: unknown) =>
  kit.as(token)('/files/query', { method: 'POST', json })

describe('POST /files/query', () => {
  it('answers by scan, then by index once reindexed, ordered and paged', async () => {
    const body = {
      path: '/tickets',
      where: { field: '/state', op: 'eq', value: 'open' },
      order_by: '/rank',
      limit: 2,
    }
    const scanned = v.parse(queryResultSchema, await (await post(rootToken, body)).json())
    expect(scanned.plan).toBe('scan')
    expect(scanned.items.map((i) => i.name)).toEqual(['t3.json', 't1.json'])
    await db.reindex('/tickets')
    const first = v.parse(queryResultSchema, await (await post(rootToken, body)).json())
    expect(first.plan).toBe('index')
    expect(first.items).toEqual(scanned.items)
    expect(first.items[0]).toMatchObject({ path: '/tickets/t3.json', entry_type: 'file' })
    const second = v.parse(
      queryResultSchema,
      await (await post(rootToken, { ...body, after: first.next })).json(),
    )
    expect(second.items.map((i) => i.name)).toEqual(['secret.json'])
    expect(second.next).toBeUndefined()
  })

  it('answers for snapshots and forks', async () => {
    await db.snapshots.create('s')
    await db.writeFile('/tickets/t4.json', JSON.stringify({ state: 'open', rank: 0 }))
    await db.forks.create('f')
    await db.fork('f').delete('/tickets/t1.json')
    const names = async (extra: object) =>
      v
        .parse(
          queryResultSchema,
          await (await post(rootToken, { path: '/tickets', ...extra })).json(),
        )
        .items.map((i) => i.name)
    expect(await names({})).toEqual(['secret.json', 't1.json', 't2.json', 't3.json', 't4.json'])
    expect(await names({ snapshot: 's' })).toEqual(['secret.json', 't1.json', 't2.json', 't3.json'])
    expect(await names({ fork: 'f' })).toEqual(['secret.json', 't2.json', 't3.json', 't4.json'])
  })

  it('shows a scoped key only what it may read, and 404 for a directory it may not list', async () => {
    const root = await auth.authenticate(rootToken)
    const key = await auth.keys.create(root, {
      rules: [{ '/tickets/secret.json': '--------' }, { '/tickets/**': '-r--l---' }],
    })
    const token = (await auth.exchangeApiKey(key.key)).token
    const res = v.parse(
      queryResultSchema,
      await (await post(token, { path: '/tickets', limit: 1 })).json(),
    )
    expect(res.items.map((i) => i.name)).toEqual(['t1.json'])
    expect(res.items[0]?.effective_permissions).toBe('-r--l---')
    const all = v.parse(queryResultSchema, await (await post(token, { path: '/tickets' })).json())
    expect(all.items.map((i) => i.name)).toEqual(['t1.json', 't2.json', 't3.json'])
    // Writing a configuration needs `y`, even with every other right on the directory.
    const writer = await auth.keys.create(root, { rules: [{ '/tickets/**': 'crudli--' }] })
    const writerToken = (await auth.exchangeApiKey(writer.key)).token
    const put = await app.request('/files/tickets/.svcdb/indexes.json', {
      method: 'PUT',
      headers: { authorization: `Bearer ${writerToken}` },
      body: '{"indexes": []}',
    })
    expect((await errorOf(put, 404)).code).toBe('NOT_FOUND')
    const other = await auth.keys.create(root, { rules: [{ '/elsewhere/**': '-r--l---' }] })
    const otherToken = (await auth.exchangeApiKey(other.key)).token
    expect((await errorOf(await post(otherToken, { path: '/tickets' }), 404)).code).toBe(
      'NOT_FOUND',
    )
  })

  it('refuses bad queries and bad configurations with 400 and a clear message', async () => {
    expect(
      (
        await errorOf(
          await post(rootToken, {
            path: '/tickets',
            where: { field: '/rank', op: 'eq', value: 'x' },
          }),
          400,
        )
      ).message,
    ).toMatch(/must be a number/)
    expect(
      (
        await errorOf(
          await post(rootToken, { path: '/tickets', where: { field: '/a', op: 'like', value: 1 } }),
          400,
        )
      ).code,
    ).toBe('VALIDATION_FAILED')
    expect(
      (await errorOf(await post(rootToken, { path: '/tickets', after: 'nope' }), 400)).message,
    ).toMatch(/cursor/)
    expect((await errorOf(await post(rootToken, { path: 'tickets' }), 400)).code).toBe(
      'VALIDATION_FAILED',
    )
    expect((await errorOf(await post(rootToken, { path: '/nowhere' }), 404)).code).toBe('NOT_FOUND')
    const put = await app.request('/files/tickets/.svcdb/indexes.json', {
      method: 'PUT',
      headers: { authorization: `Bearer ${rootToken}` },
      body: '{"indexes": [{"field": "/x", "type": "date"}]}',
    })
    expect((await errorOf(put, 400)).message).toMatch(
      /invalid index configuration: indexes\[0\]\.type/,
    )
  })
})
