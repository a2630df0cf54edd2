import { MemoryLevel } from 'memory-level'
import { describe, expect, it } from 'vitest'
import { countingView, unclosedView } from '../test/support/shared-meta-store'
import { Database } from './database'
import { isEngineError } from './errors'
import { COMMIT_TOKEN_KEY } from './meta/keys'
import { createLevelMetaStore } from './meta/level-meta-store'
import { MAX_SHARED_ATTEMPTS } from './commit/committer'
import { runSharedDatabaseSuite } from './testing/shared-database-suite'

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes)

async function codeOf(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise
    return undefined
  } catch (err) {
    if (isEngineError(err)) return err.code
    throw err
  }
}

// Two nodes on one metadata store (a LevelDB in memory).
runSharedDatabaseSuite('level', async () => {
  const level = new MemoryLevel<string, Uint8Array>({ valueEncoding: 'view' })
  await level.open()
  const meta = createLevelMetaStore(level)
  // Both create the database at once: one does, the other opens what it made.
  const [a, b] = await Promise.all([
    Database.open({ meta: unclosedView(meta), shared: true }),
    Database.open({ meta: unclosedView(meta), shared: true }),
  ])
  return {
    a,
    b,
    meta,
    async close() {
      await a.close()
      await b.close()
      await meta.close()
    },
  }
})

describe('shared database without a metadata store', () => {
  it('is refused with INVALID_INPUT', async () => {
    const other = new MemoryLevel<string, Uint8Array>({ valueEncoding: 'view' })
    expect(await codeOf(Database.open({ level: other, shared: true }))).toBe('INVALID_INPUT')
    expect(await codeOf(Database.open({ path: '/nonexistent/x', shared: true }))).toBe(
      'INVALID_INPUT',
    )
    await other.close()
  })
})

describe('shared database against a store where other nodes always commit first', () => {
  it('gives up after a bounded number of attempts with CONFLICT, changing nothing', async () => {
    const level = new MemoryLevel<string, Uint8Array>({ valueEncoding: 'view' })
    await level.open()
    const meta = createLevelMetaStore(level)
    const setup = await Database.open({ meta: unclosedView(meta), shared: true })
    await setup.writeFile('/kept.txt', 'kept')
    await setup.close()
    const view = countingView(meta, { loseGuarded: () => true })
    const db = await Database.open({ meta: view, shared: true })
    expect(await codeOf(db.writeFile('/lost.txt', 'lost'))).toBe('CONFLICT')
    expect(view.calls.guarded).toBe(MAX_SHARED_ATTEMPTS)
    expect(await codeOf(db.stat('/lost.txt'))).toBe('NOT_FOUND')
    expect(text(await db.readFile('/kept.txt'))).toBe('kept')
    await db.close()
    await meta.close()
  })
})

describe('database not shared', () => {
  it('reads no commit token and guards no batch', async () => {
    const level = new MemoryLevel<string, Uint8Array>({ valueEncoding: 'view' })
    await level.open()
    const meta = createLevelMetaStore(level)
    const view = countingView(meta)
    const db = await Database.open({ meta: view })
    for (let i = 0; i < 5; i++) await db.writeFile(`/f${i}`, `data ${i}`)
    for (let i = 0; i < 5; i++) await db.readFile(`/f${i}`)
    await db.snapshots.list()
    await db.history('/f0')
    expect(view.calls.guarded).toBe(0)
    expect(view.calls.tokenReads).toBe(0)
    expect(await meta.get('meta', COMMIT_TOKEN_KEY)).toBeUndefined()
    await db.close()
    await meta.close()
  })
})
