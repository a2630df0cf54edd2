import { versionChangesPageSchema } from '@svcdb/contract'
import type { VersionChangeView } from '@svcdb/contract'
import * as v from 'valibot'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { fileRouteHandlers } from '../files/file-route-handlers'
import { namedVersionRouteHandlers } from '../named-versions/named-version-route-handlers'
import { errorCode, startTestApp } from '../../../test/kit'
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

async function pageOf(call: ReturnType<TestApp['as']>, query: string) {
  const res = await call(`/versions/changes${query}`)
  expect(res.status).toBe(200)
  return v.parse(versionChangesPageSchema, await res.json())
}

/** Every item, page by page, and the number of pages it took. */
async function allOf(call: ReturnType<TestApp['as']>, query: string) {
  const items: VersionChangeView[] = []
  let cursor: string | null = null
  let pages = 0
  do {
    const page = await pageOf(
      call,
      cursor === null ? query : `${query}&cursor=${encodeURIComponent(cursor)}`,
    )
    items.push(...page.items)
    cursor = page.cursor
    pages++
  } while (cursor !== null)
  return { items, pages }
}

/** A base version, then HEAD changes under /pub and /secret (and a kind change at /swap). */
async function changeAfterBase(): Promise<string> {
  await kit.db.writeFile('/pub/old.txt', 'old')
  await kit.db.writeFile('/pub/edit.txt', 'first')
  await kit.db.writeFile('/secret/old.txt', 'old')
  await kit.db.writeFile('/swap', 'a file')
  const base = kit.db.head()
  await kit.db.writeFile('/pub/a.txt', 'a')
  await kit.db.writeFile('/pub/b.txt', 'b')
  await kit.db.writeFile('/pub/edit.txt', 'second')
  await kit.db.writeFile('/pub-x.txt', 'sorts between /pub and /pub/… by path, after by tree')
  await kit.db.delete('/pub/old.txt')
  await kit.db.writeFile('/secret/plans.txt', 'hidden')
  await kit.db.delete('/swap')
  await kit.db.writeFile('/swap/inner.txt', 'now a directory')
  return base
}

const expected = [
  { path: '/pub/a.txt', change: 'added', type: 'file' },
  { path: '/pub/b.txt', change: 'added', type: 'file' },
  { path: '/pub/edit.txt', change: 'modified', type: 'file' },
  { path: '/pub/old.txt', change: 'deleted', type: 'file' },
  { path: '/pub-x.txt', change: 'added', type: 'file' },
  { path: '/secret/plans.txt', change: 'added', type: 'file' },
  { path: '/swap', change: 'deleted', type: 'file' },
  { path: '/swap', change: 'added', type: 'directory' },
]

describe('GET /versions/changes', () => {
  it('pages every entry that differs, in the engine’s order, whatever the page size', async () => {
    const base = await changeAfterBase()
    const whole = await pageOf(root, `?from=${base}`)
    expect(whole).toEqual({ items: expected, cursor: null })
    for (const limit of [1, 2, 3, 6]) {
      const paged = await allOf(root, `?from=${base}&limit=${limit}`)
      expect(paged.items).toEqual(expected)
      expect(paged.pages).toBe(Math.ceil(expected.length / limit))
    }
  })

  it('takes HEAD and snapshot names on either side', async () => {
    const base = await changeAfterBase()
    await kit.db.snapshots.create('after')
    expect((await pageOf(root, `?from=${base}&to=HEAD`)).items).toEqual(expected)
    expect((await pageOf(root, `?from=${base}&to=after`)).items).toEqual(expected)
    expect((await pageOf(root, '?from=HEAD')).items).toEqual([])
    const back = await pageOf(root, `?from=HEAD&to=${base}&limit=1`)
    expect(back.items).toEqual([{ path: '/pub/a.txt', change: 'deleted', type: 'file' }])
  })

  it('shows a scoped key only the entries it may read', async () => {
    const base = await changeAfterBase()
    const caller = await kit.auth.authenticate(kit.rootToken)
    const created = await kit.auth.keys.create(caller, {
      rules: [{ '/pub/**': '-r--l---' }, { '/**': '--------' }],
    })
    const scoped = kit.as((await kit.auth.exchangeApiKey(created.key)).token)
    const seen = await allOf(scoped, `?from=${base}&limit=1`)
    expect(seen.items.map((i) => i.path)).toEqual([
      '/pub/a.txt',
      '/pub/b.txt',
      '/pub/edit.txt',
      '/pub/old.txt',
    ])
    // Snapshot names are the inventory's: to this key one looks absent.
    await kit.db.snapshots.create('after')
    expect(await errorCode(await scoped(`/versions/changes?from=after`), 404)).toBe('NOT_FOUND')
  })

  it('answers 404 for a directory’s hash, an unknown hash or snapshot', async () => {
    await changeAfterBase()
    const dir = (await kit.db.stat('/pub')).hash
    for (const from of [dir, 'f'.repeat(64), 'nope']) {
      const res = await root(`/versions/changes?from=${from}`)
      expect(await errorCode(res, 404)).toBe('NOT_FOUND')
    }
    const to = await root(`/versions/changes?from=HEAD&to=${dir}`)
    expect(await errorCode(to, 404)).toBe('NOT_FOUND')
  })

  it('refuses a missing from, a bad limit or cursor with 400', async () => {
    for (const query of [
      '',
      '?from=HEAD&limit=0',
      '?from=HEAD&limit=1001',
      '?from=HEAD&cursor=x',
    ]) {
      expect(await errorCode(await root(`/versions/changes${query}`), 400)).toBe(
        'VALIDATION_FAILED',
      )
    }
  })
})
