import { describe, expect, it } from 'vitest'
import { openMemoryDatabase, rejectsWith } from '../test/engine-test-kit'

describe('systemStore', () => {
  it('keeps namespaces apart, lists by prefix in key order, and applies batches atomically', async () => {
    const { db } = await openMemoryDatabase()
    const a = db.systemStore('auth')
    const b = db.systemStore('tasks')
    await a.batch([
      { type: 'put', key: 'user/2', value: 'two' },
      { type: 'put', key: 'user/1', value: 'one' },
      { type: 'put', key: 'key/1', value: 'k' },
    ])
    await b.batch([{ type: 'put', key: 'user/9', value: 'not auth' }])
    expect(await a.get('user/1')).toBe('one')
    expect(await a.get('user/9')).toBeUndefined()
    expect(await a.entries('user/')).toEqual([
      ['user/1', 'one'],
      ['user/2', 'two'],
    ])
    expect(await a.entries('user/', { after: 'user/1' })).toEqual([['user/2', 'two']])
    expect(await a.entries('', { limit: 1 })).toEqual([['key/1', 'k']])
    await a.batch([{ type: 'del', key: 'user/1' }], { sync: false })
    expect(await a.entries('user/')).toEqual([['user/2', 'two']])
    // Any character, astral ones included, stays within its prefix's listing.
    await a.batch([
      { type: 'put', key: 'x/😀', value: 'emoji' },
      { type: 'put', key: 'x/\uffffz', value: 'last' },
      { type: 'put', key: 'y', value: 'after' },
    ])
    expect((await a.entries('x/')).map(([k]) => k)).toEqual(['x/\uffffz', 'x/😀'])
    expect(() => db.systemStore('Bad/Name')).toThrow(/invalid system namespace/)
    await db.close()
    await rejectsWith(a.get('user/2'), 'CLOSED')
  })
})

describe('systemStore guarded batches', () => {
  it('applies a batch only while its guards hold, and names CONFLICT otherwise', async () => {
    const { db } = await openMemoryDatabase()
    const store = db.systemStore('auth')
    await store.batch([{ type: 'put', key: 'root', value: 'a' }], {
      guards: [{ key: 'root', expect: null }],
    })
    await rejectsWith(
      store.batch([{ type: 'put', key: 'root', value: 'b' }], {
        guards: [{ key: 'root', expect: null }],
      }),
      'CONFLICT',
    )
    expect(await store.get('root')).toBe('a')
    await store.batch([{ type: 'put', key: 'root', value: 'c' }], {
      guards: [{ key: 'root', expect: 'a' }],
    })
    await rejectsWith(
      store.batch([{ type: 'del', key: 'root' }], { guards: [{ key: 'root', expect: 'a' }] }),
      'CONFLICT',
    )
    expect(await store.get('root')).toBe('c')
    // A guard names a key of its own namespace only.
    await db.systemStore('tasks').batch([{ type: 'put', key: 'root', value: 'x' }], {
      guards: [{ key: 'root', expect: null }],
    })
    await db.close()
  })

  it('lets exactly one of racing guarded batches win', async () => {
    const { db } = await openMemoryDatabase()
    const store = db.systemStore('auth')
    const results = await Promise.allSettled(
      ['a', 'b', 'c', 'd'].map((value) =>
        store.batch([{ type: 'put', key: 'once', value }], {
          guards: [{ key: 'once', expect: null }],
        }),
      ),
    )
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1)
    await db.close()
  })
})
