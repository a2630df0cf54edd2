import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { fileRouteHandlers } from '../files/file-route-handlers'
import { namedVersionRouteHandlers } from '../named-versions/named-version-route-handlers'
import { errorOf, startTestApp } from '../../../test/kit'
import type { TestApp } from '../../../test/kit'
import { versionRouteHandlers } from './version-route-handlers'

let t: TestApp
let root: ReturnType<TestApp['as']>

beforeEach(async () => {
  t = await startTestApp(({ db, auth }) => [
    ...versionRouteHandlers({ db }),
    ...namedVersionRouteHandlers({ db, auth }),
    ...fileRouteHandlers({ db, auth }),
  ])
  root = t.as(t.rootToken)
})
afterEach(async () => {
  await t.close()
})

/** The spec: "HEAD denotes the current version", wherever a version is named. */
describe('HEAD as a version name', () => {
  it('diffs from a hash to HEAD, and from HEAD', async () => {
    await t.db.writeFile('/a.txt', 'one')
    const first = t.db.head()
    await t.db.writeFile('/b.txt', 'two')
    const head = t.db.head()

    const toHead = await root(`/versions/diff?from=${first}&to=HEAD`, { method: 'POST' })
    expect(toHead.status).toBe(200)
    expect(toHead.headers.get('content-disposition')).toContain(`patch-${head.slice(0, 12)}`)
    const byDefault = await root(`/versions/diff?from=${first}`, { method: 'POST' })
    expect(byDefault.headers.get('content-disposition')).toBe(
      toHead.headers.get('content-disposition'),
    )
    expect((await toHead.arrayBuffer()).byteLength).toBe((await byDefault.arrayBuffer()).byteLength)
    const fromHead = await root('/versions/diff?from=HEAD', { method: 'POST' })
    expect(fromHead.status).toBe(200)
    expect(
      (await errorOf(await root('/versions/diff?from=nope', { method: 'POST' }), 404)).code,
    ).toBe('NOT_FOUND')
  })

  it('exports HEAD by hash=HEAD and snapshot=HEAD', async () => {
    await t.db.writeFile('/a.txt', 'one')
    const name = `export-${t.db.head().slice(0, 12)}.svcdb`
    for (const query of ['hash=HEAD', 'snapshot=HEAD']) {
      const res = await root(`/versions/export?${query}`, { method: 'POST' })
      expect(res.status, query).toBe(200)
      expect(res.headers.get('content-disposition')).toContain(name)
    }
  })

  it('reads and queries files at version=HEAD and snapshot=HEAD', async () => {
    await t.db.writeFile('/docs/a.json', '{"n":1}')
    for (const query of ['version=HEAD', 'snapshot=HEAD']) {
      const res = await root(`/files/docs/a.json?${query}`)
      expect(res.status, query).toBe(200)
      expect(await res.text()).toBe('{"n":1}')
    }
    const queried = await root('/files/query', {
      method: 'POST',
      json: { path: '/docs', version: 'HEAD' },
    })
    expect(queried.status).toBe(200)
    expect(((await queried.json()) as { items: unknown[] }).items).toHaveLength(1)
  })

  it('forks from base HEAD and restores a path from HEAD', async () => {
    await t.db.writeFile('/a.txt', 'one')
    const fork = await root('/versions/forks', {
      method: 'POST',
      json: { name: 'f', base: 'HEAD' },
    })
    expect(fork.status).toBe(201)
    expect(((await fork.json()) as { version: string }).version).toBe(t.db.head())
    for (const body of [{ snapshot: 'HEAD' }, { version: 'HEAD' }]) {
      const res = await root('/versions/restore/a.txt', { method: 'POST', json: body })
      expect(res.status, JSON.stringify(body)).toBe(200)
    }
  })

  it('refuses a snapshot named HEAD', async () => {
    const res = await root('/versions/snapshots', { method: 'POST', json: { name: 'HEAD' } })
    expect((await errorOf(res, 400)).message).toMatch(/HEAD/)
  })
})
