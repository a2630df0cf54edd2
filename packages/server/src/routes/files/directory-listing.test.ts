import { createAuth, createMemoryIdentityStore } from '@svcdb/auth'
import type { Auth, Rule } from '@svcdb/auth'
import type { Database } from '@svcdb/engine'
import type { ListOptions, TreeView } from '@svcdb/engine'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listDirectory } from './directory-listing'
import type { ReadQuery } from './read-source'
import { openTempDatabase } from '../../../test/kit'
import type { TempDatabase } from '../../../test/kit'

let temp: TempDatabase
let db: Database
let auth: Auth
let rootToken: string
const FILES = 1500

beforeAll(async () => {
  temp = await openTempDatabase('svcdb-listing-')
  db = temp.db
  auth = createAuth({ store: createMemoryIdentityStore() })
  rootToken = (await auth.exchangeApiKey((await auth.bootstrap()).rootApiKey as string)).token
  await Promise.all(
    Array.from({ length: FILES }, (_, i) =>
      db.writeFile(`/big/f${String(i).padStart(5, '0')}.txt`, `${i}`),
    ),
  )
  await db.writeFile('/big/sub/deep.txt', 'deep')
}, 60_000)
afterAll(async () => {
  await temp.destroy()
})

/** A real view that counts the entries its listings hand out. */
function counted(view: TreeView): { view: TreeView; yielded: () => number } {
  let yielded = 0
  const list = view.list.bind(view)
  const proxy = new Proxy(view, {
    get(target, key, receiver) {
      if (key !== 'list') return Reflect.get(target, key, receiver) as unknown
      return async function* (path: string, options?: ListOptions) {
        for await (const entry of list(path, options)) {
          yielded++
          yield entry
        }
      }
    },
  })
  return { view: proxy, yielded: () => yielded }
}

/** The access of a root key restricted by `rules` (none: root itself). */
async function accessFor(rules: Rule[]) {
  const root = await auth.authenticate(rootToken)
  if (rules.length === 0) return auth.accessFor(root)
  const { key } = await auth.keys.create(root, { rules })
  return auth.accessFor(await auth.authenticate((await auth.exchangeApiKey(key)).token))
}
const query = (q: Partial<ReadQuery>): ReadQuery => ({
  limit: 1,
  offset: 0,
  depth: 0,
  nofollow: false,
  stat: false,
  ...q,
})

describe('directory listings (issue 23, item 16)', () => {
  it('a page costs its size when the caller’s rules treat the directory alike', async () => {
    const { view, yielded } = counted(db.view())
    const entry = await view.stat('/big')
    const page = await listDirectory(view, await accessFor([]), entry, query({ limit: 1 }))
    expect(page.items.map((i) => i.name)).toEqual(['f00000.txt'])
    expect(page.total).toBe(FILES + 1)
    expect(page.next).toBe('f00000.txt')
    expect(yielded()).toBeLessThanOrEqual(2)
    const deep = await listDirectory(view, await accessFor([{ '/big/**': '-r--l---' }]), entry, {
      ...query({ limit: 2, depth: -1, after: 'f00010.txt' }),
    })
    expect(deep.total).toBe(FILES + 1)
    expect(deep.items.map((i) => i.name)).toEqual(['f00011.txt', 'f00012.txt'])
    expect(deep.items[0]?.effective_permissions).toBe('-r--l---')
  })

  it('counts exactly what the caller may see when rules differ below', async () => {
    const view = db.view()
    const entry = await view.stat('/big')
    const rules = [{ '/big/f0000*': '-r--l---' }, { '/big/sub/**': '-r--l---' }]
    const first = await listDirectory(view, await accessFor(rules), entry, query({ limit: 3 }))
    expect(first.total).toBe(11)
    expect(first.items.map((i) => i.name)).toEqual(['f00000.txt', 'f00001.txt', 'f00002.txt'])
    const after = await listDirectory(view, await accessFor(rules), entry, {
      ...query({ limit: 20, after: 'f00002.txt' }),
    })
    expect(after.total).toBe(11)
    expect(after.items.length).toBe(8)
    expect(after.next).toBeUndefined()
    const none = await listDirectory(
      view,
      await accessFor([{ '/other/**': 'crudl---' }]),
      entry,
      query({}),
    )
    expect(none).toMatchObject({ items: [], total: 0 })
  })
})
