import type { Auth } from '@svcdb/auth'
import { entryViewSchema, listingSchema, writeResultSchema } from '@svcdb/contract'
import type { Database } from '@svcdb/engine'
import * as v from 'valibot'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { fileRouteHandlers } from './file-route-handlers'
import { errorCode, startTestApp } from '../../../test/kit'
import type { TestApp } from '../../../test/kit'

let kit: TestApp
let db: Database
let auth: Auth
let app: TestApp['app']
let rootToken: string
let as: TestApp['as']

beforeEach(async () => {
  kit = await startTestApp((deps) => fileRouteHandlers(deps))
  ;({ db, auth, app, rootToken, as } = kit)
})
afterEach(() => kit.close())

describe('files API', () => {
  it('writes, reads with ETag, ranges and conditional requests, and deletes', async () => {
    const root = as(rootToken)
    const put = await root('/files/docs/hello.txt', {
      method: 'PUT',
      body: 'hello world',
      headers: { 'content-type': 'text/plain' },
    })
    expect(put.status).toBe(201)
    const written = v.parse(writeResultSchema, await put.json())
    expect(written).toMatchObject({
      path: '/docs/hello.txt',
      name: 'hello.txt',
      size: 11,
      content_type: 'text/plain',
    })
    expect(
      (await root('/files/docs/hello.txt', { method: 'PUT', body: 'hello again' })).status,
    ).toBe(200)

    const got = await root('/files/docs/hello.txt')
    expect(got.status).toBe(200)
    expect(await got.text()).toBe('hello again')
    const etag = got.headers.get('etag') as string
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/)
    expect(got.headers.get('content-length')).toBe('11')
    expect(got.headers.get('accept-ranges')).toBe('bytes')
    expect(
      (await root('/files/docs/hello.txt', { headers: { 'if-none-match': etag } })).status,
    ).toBe(304)
    const partial = await root('/files/docs/hello.txt', { headers: { range: 'bytes=6-' } })
    expect(partial.status).toBe(206)
    expect(partial.headers.get('content-range')).toBe('bytes 6-10/11')
    expect(await partial.text()).toBe('again')
    const beyond = await root('/files/docs/hello.txt', { headers: { range: 'bytes=50-60' } })
    expect(beyond.status).toBe(416)
    expect(beyond.headers.get('content-range')).toBe('bytes */11')
    const head = await root('/files/docs/hello.txt', { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(head.headers.get('etag')).toBe(etag)
    expect(await head.text()).toBe('')

    expect(
      await errorCode(
        await root('/files/docs/hello.txt', {
          method: 'PUT',
          body: 'x',
          headers: { 'if-match': '"0000"' },
        }),
        412,
      ),
    ).toBe('PRECONDITION_FAILED')
    expect(
      await errorCode(
        await root('/files/docs/hello.txt', {
          method: 'PUT',
          body: 'x',
          headers: { 'if-none-match': '*' },
        }),
        412,
      ),
    ).toBe('PRECONDITION_FAILED')
    expect(
      (
        await root('/files/docs/hello.txt', {
          method: 'PUT',
          body: 'x',
          headers: { 'if-match': etag },
        })
      ).status,
    ).toBe(200)

    expect(await errorCode(await root('/files/docs', { method: 'DELETE' }), 409)).toBe('CONFLICT')
    expect(await (await root('/files/docs?recursive=true', { method: 'DELETE' })).json()).toEqual({
      deleted: true,
      path: '/docs',
      entry_type: 'directory',
    })
    expect(await errorCode(await root('/files/docs/hello.txt'), 404)).toBe('NOT_FOUND')
  })

  it('sniffs a missing content type from the bytes', async () => {
    const root = as(rootToken)
    const png = Uint8Array.from([
      0x89,
      0x50,
      0x4e,
      0x47,
      0x0d,
      0x0a,
      0x1a,
      0x0a,
      0,
      0,
      0,
      13,
      0x49,
      0x48,
      0x44,
      0x52,
      ...new Uint8Array(64),
    ])
    const res = await app.request('/files/pic', {
      method: 'PUT',
      body: png,
      headers: { authorization: `Bearer ${rootToken}`, 'content-type': '' },
    })
    expect(v.parse(writeResultSchema, await res.json()).content_type).toBe('image/png')
    expect((await root('/files/pic')).headers.get('content-type')).toBe('image/png')
  })

  it('lists directories page by page, with mkdir, move, copy and symlinks', async () => {
    const root = as(rootToken)
    for (const name of ['a', 'b', 'c', 'd', 'e']) await db.writeFile(`/dir/${name}.txt`, name)
    expect(
      (
        await root('/files/mkdir', {
          method: 'POST',
          body: JSON.stringify({ path: '/dir/sub' }),
          headers: { 'content-type': 'application/json' },
        })
      ).status,
    ).toBe(201)
    const page1 = v.parse(listingSchema, await (await root('/files/dir?limit=2')).json())
    expect(page1).toMatchObject({ total: 6, limit: 2, offset: 0, next: 'b.txt' })
    expect(page1.items.map((i) => i.name)).toEqual(['a.txt', 'b.txt'])
    const page2 = v.parse(
      listingSchema,
      await (await root(`/files/dir?limit=2&after=${page1.next}`)).json(),
    )
    expect(page2.items.map((i) => i.name)).toEqual(['c.txt', 'd.txt'])
    const byOffset = v.parse(
      listingSchema,
      await (await root('/files/dir?limit=10&offset=4')).json(),
    )
    expect(byOffset.items.map((i) => i.name)).toEqual(['e.txt', 'sub'])
    expect(byOffset.next).toBeUndefined()
    const globbed = v.parse(
      listingSchema,
      await (await root('/files/dir?glob=*.txt&depth=-1')).json(),
    )
    expect(globbed.total).toBe(5)

    const json = (body: unknown) => ({
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json' },
    })
    expect(
      (await root('/files/move', json({ from: '/dir/a.txt', to: '/moved/a.txt' }))).status,
    ).toBe(200)
    const copied = await root(
      '/files/copy',
      json({ paths: ['/dir/b.txt', '/dir/c.txt'], destination: '/copies' }),
    )
    expect(((await copied.json()) as { items: unknown[] }).items).toHaveLength(2)
    expect(await (await root('/files/copies/c.txt')).text()).toBe('c')
    const link = await root('/links/shortcut', {
      method: 'PUT',
      body: JSON.stringify({ target: '/copies/b.txt' }),
      headers: { 'content-type': 'application/json' },
    })
    expect(link.status).toBe(200)
    expect(await (await root('/files/shortcut')).text()).toBe('b')
    const itself = v.parse(
      entryViewSchema,
      await (await root('/files/shortcut?nofollow=true')).json(),
    )
    expect(itself).toMatchObject({ entry_type: 'symlink', target: '/copies/b.txt' })
    const followed = v.parse(
      entryViewSchema,
      await (await root('/files/shortcut?stat=true')).json(),
    )
    expect(followed).toMatchObject({ path: '/copies/b.txt', entry_type: 'file', size: 1 })
    const dir = v.parse(entryViewSchema, await (await root('/files/copies?stat=true')).json())
    expect(dir).toMatchObject({ path: '/copies', entry_type: 'directory' })
    await root('/links/loop1', {
      method: 'PUT',
      body: JSON.stringify({ target: '/loop2' }),
      headers: { 'content-type': 'application/json' },
    })
    await root('/links/loop2', {
      method: 'PUT',
      body: JSON.stringify({ target: '/loop1' }),
      headers: { 'content-type': 'application/json' },
    })
    expect((await root('/files/loop1')).status).toBe(400)
    await root('/links/dangling', {
      method: 'PUT',
      body: JSON.stringify({ target: '/nothing' }),
      headers: { 'content-type': 'application/json' },
    })
    expect((await root('/files/dangling')).status).toBe(404)
  })

  it('works on forks and reads snapshots and versions', async () => {
    const root = as(rootToken)
    await db.writeFile('/f.txt', 'head')
    const v1 = db.head()
    await db.snapshots.create('s1')
    await db.forks.create('exp')
    expect((await root('/files/f.txt?fork=exp', { method: 'PUT', body: 'fork' })).status).toBe(200)
    expect(await (await root('/files/f.txt')).text()).toBe('head')
    expect(await (await root('/files/f.txt?fork=exp')).text()).toBe('fork')
    await db.writeFile('/f.txt', 'later')
    expect(await (await root('/files/f.txt?snapshot=s1')).text()).toBe('head')
    expect(await (await root(`/files/f.txt?version=${v1}`)).text()).toBe('head')
    expect(await errorCode(await root('/files/f.txt?fork=none'), 404)).toBe('NOT_FOUND')
  })

  // Dot segments are resolved by URL parsing in process; the raw-socket e2e test covers them.
  it('refuses encoded slashes, control characters and bad segments with 400', async () => {
    const root = as(rootToken)
    for (const path of [
      '/files/a%5Cb',
      '/files/a%2Fb',
      '/files/a/%00b',
      '/files/a//b',
      `/files/${'x'.repeat(300)}`,
    ]) {
      expect((await root(path)).status).toBe(400)
    }
  })

  it('hides what a scoped key may not see, answering 404, and shows effective permissions', async () => {
    await db.writeFile('/docs/public/a.txt', 'a')
    await db.writeFile('/docs/secret/b.txt', 'b')
    await db.writeFile('/other.txt', 'c')
    const rootPrincipal = await auth.authenticate(rootToken)
    const key = await auth.keys.create(rootPrincipal, {
      rules: [{ '/docs/public/**': '-r--l---' }],
    })
    const scoped = as((await auth.exchangeApiKey(key.key)).token)
    expect(await (await scoped('/files/docs/public/a.txt')).text()).toBe('a')
    expect(await errorCode(await scoped('/files/docs/secret/b.txt'), 404)).toBe('NOT_FOUND')
    // Create-only over a file the key can read: 412, though the key may not update it.
    expect(
      await errorCode(
        await scoped('/files/docs/public/a.txt', {
          method: 'PUT',
          body: 'x',
          headers: { 'if-none-match': '*' },
        }),
        412,
      ),
    ).toBe('PRECONDITION_FAILED')
    // …but over one it cannot see, still 404: nothing is revealed.
    expect(
      await errorCode(
        await scoped('/files/other.txt', {
          method: 'PUT',
          body: 'x',
          headers: { 'if-none-match': '*' },
        }),
        404,
      ),
    ).toBe('NOT_FOUND')
    expect(await errorCode(await scoped('/files/other.txt'), 404)).toBe('NOT_FOUND')
    expect(
      await errorCode(
        await scoped('/files/docs/public/new.txt', { method: 'PUT', body: 'x' }),
        404,
      ),
    ).toBe('NOT_FOUND')
    const listing = v.parse(listingSchema, await (await scoped('/files/docs')).json())
    expect(listing.items.map((i) => [i.name, i.effective_permissions])).toEqual([
      ['public', expect.stringMatching(/^-r--l---$/)],
    ])
    expect(listing.total).toBe(1)
  })
})
