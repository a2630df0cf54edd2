import { MemoryLevel } from 'memory-level'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { unclosedView } from '../../test/support/shared-meta-store'
import { Database } from '../database'
import type { DatabaseOptions } from '../database'
import { createLevelMetaStore } from '../meta/level-meta-store'
import type { MetaStore } from '../meta/meta-store'
import type { DatabaseChange } from './database-change'

/** Waits (bounded) until `done()` holds; fails naming `what` otherwise. */
async function until(what: string, done: () => boolean): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if (done()) return
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
  throw new Error(`timed out waiting for ${what}`)
}

/** A change as the tests compare it: type, version and paths (or name). */
function brief(change: DatabaseChange): string {
  const what =
    change.type === 'entries_created' || change.type === 'entries_deleted'
      ? change.entries.map((e) => e.path).join(',')
      : change.type === 'version_created'
        ? `${change.kind}:${change.name}`
        : `${change.cause}<-${change.previous.slice(0, 8)}`
  return `${change.type} ${what} @${change.version.slice(0, 8)}${change.fork === undefined ? '' : ` fork:${change.fork}`}`
}

/** Versions in order, each once (a group's changes share one version). */
function versions(changes: readonly DatabaseChange[]): string[] {
  const out: string[] = []
  for (const change of changes) if (out.at(-1) !== change.version) out.push(change.version)
  return out
}

/** `meta` whose guarded batches, once committed, call the listeners of `watch`. */
function watchedView(meta: MetaStore): MetaStore & { notifications: number } {
  const listeners = new Set<() => void>()
  const view = {
    ...unclosedView(meta),
    notifications: 0,
    async batch(...args: Parameters<MetaStore['batch']>) {
      await meta.batch(...args)
      if (args[1].guards !== undefined && args[1].guards.length > 0)
        setTimeout(() => {
          view.notifications++
          for (const listener of listeners) listener()
        }, 1)
    },
    watch(listener: () => void) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
  return view
}

describe('the change feed of a shared database', () => {
  let level: MemoryLevel<string, Uint8Array>
  let meta: MetaStore
  const opened: Database[] = []

  async function node(options: Partial<DatabaseOptions> = {}, view?: MetaStore): Promise<Database> {
    const db = await Database.open({
      meta: view ?? unclosedView(meta),
      shared: true,
      sharedPollMs: 5,
      ...options,
    })
    opened.push(db)
    return db
  }

  beforeEach(async () => {
    level = new MemoryLevel<string, Uint8Array>({ valueEncoding: 'view' })
    await level.open()
    meta = createLevelMetaStore(level)
  })

  afterEach(async () => {
    for (const db of opened.splice(0)) await db.close()
    await meta.close()
  })

  it("reports the other node's writes to a listener, in commit order between its own, each once", async () => {
    const a = await node()
    const b = await node()
    const seen: DatabaseChange[] = []
    b.onChange((change) => seen.push(change))
    const expected: string[] = []
    const step = async (db: Database, act: () => Promise<unknown>, what: string) => {
      await act()
      expected.push(`${what} @${db.head().slice(0, 8)}`)
    }
    await step(a, () => a.writeFile('/a1.txt', 'one'), 'entries_created /a1.txt')
    await step(b, () => b.writeFile('/b1.txt', 'b one'), 'entries_created /b1.txt')
    await step(a, () => a.writeFile('/a2.txt', 'two'), 'entries_created /a2.txt')
    await a.snapshots.create('s1', { metadata: { by: 'a' } })
    expected.push(`version_created snapshot:s1 @${a.head().slice(0, 8)}`)
    await step(b, () => b.writeFile('/b2.txt', 'b two'), 'entries_created /b2.txt')
    await step(a, () => a.delete('/a1.txt'), 'entries_deleted /a1.txt')
    await until('the last change', () => seen.length >= expected.length)
    // Anything reported twice would show up by now, after more polls.
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(seen.map(brief)).toEqual(expected)
    const created = seen.find((c) => c.type === 'version_created')
    expect(created).toMatchObject({ kind: 'snapshot', name: 's1', metadata: { by: 'a' } })
  })

  it('reports whole-version moves and forks of the other node as its own node does', async () => {
    const a = await node()
    const b = await node()
    await a.writeFile('/x.txt', 'x')
    await a.snapshots.create('before')
    const before = a.head()
    // Moves b has not seen yet are reported to a listener subscribing later, so see them first.
    await b.refresh()
    const local: DatabaseChange[] = []
    const remote: DatabaseChange[] = []
    a.onChange((change) => local.push(change))
    b.onChange((change) => remote.push(change))
    await a.writeFile('/y.txt', 'y')
    await a.snapshots.restore('before')
    await a.forks.create('side')
    await a.fork('side').writeFile('/z.txt', 'z')
    await until('four changes on b', () => remote.length >= 4)
    expect(remote.map(brief)).toEqual(local.map(brief))
    expect(remote[1]).toMatchObject({ type: 'version_promoted', cause: 'restore', version: before })
    expect(remote[3]).toMatchObject({ type: 'entries_created', fork: 'side' })
  })

  it('gives both nodes the same sequence of versions when both write at once', async () => {
    const a = await node()
    const b = await node()
    const onA: DatabaseChange[] = []
    const onB: DatabaseChange[] = []
    a.onChange((change) => onA.push(change))
    b.onChange((change) => onB.push(change))
    await a.mkdir('/a')
    await a.mkdir('/b')
    const writes: Promise<unknown>[] = []
    const written: string[] = []
    for (let i = 0; i < 25; i++) {
      for (const [name, db] of [
        ['a', a],
        ['b', b],
      ] as const) {
        written.push(`/${name}/${i}.txt`)
        // Some awaited, so the nodes take turns more than once.
        if (i % 5 === 4) await db.writeFile(`/${name}/${i}.txt`, `${name} ${i}`)
        else writes.push(db.writeFile(`/${name}/${i}.txt`, `${name} ${i}`))
      }
    }
    await Promise.all(writes)
    await b.refresh()
    await a.refresh()
    const head = a.head()
    expect(b.head()).toBe(head)
    const paths = (changes: DatabaseChange[]) =>
      changes.flatMap((c) => ('entries' in c ? c.entries.map((e) => e.path) : []))
    // A file written where no directory was shows on the other node as its new directory
    // (a diff reports an entry at the highest path where it differs).
    const covered = (changes: DatabaseChange[]) =>
      written.filter((path) => paths(changes).some((p) => path === p || path.startsWith(`${p}/`)))
    await until(
      'every write on both',
      () => covered(onA).length === 50 && covered(onB).length === 50,
    )
    await new Promise((resolve) => setTimeout(resolve, 50))
    for (const changes of [onA, onB]) {
      expect(new Set(paths(changes)).size).toBe(paths(changes).length)
      expect(versions(changes).at(-1)).toBe(head)
    }
    expect(versions(onB)).toEqual(versions(onA))
  })

  it('keeps the order for a slow listener and a slow iteration', async () => {
    const a = await node()
    const b = await node()
    const slow: string[] = []
    b.onChange((change) => {
      const until = Date.now() + 10
      while (Date.now() < until); // a listener that holds the thread
      slow.push(brief(change))
    })
    const iterated: string[] = []
    const iteration = (async () => {
      for await (const change of b.changes()) {
        await new Promise((resolve) => setTimeout(resolve, 15))
        iterated.push(brief(change))
        if (iterated.length === 12) return
      }
    })()
    const expected: string[] = []
    for (let i = 0; i < 12; i++) {
      const writer = i % 3 === 2 ? b : a
      await writer.writeFile(`/f${i}.txt`, `file ${i}`)
      expected.push(`entries_created /f${i}.txt @${writer.head().slice(0, 8)}`)
      if (i % 4 === 0) await b.refresh() // reloads besides the poll's
    }
    await iteration
    await until('the slow listener', () => slow.length >= 12)
    expect(slow).toEqual(expected)
    expect(iterated).toEqual(expected)
  })

  it('reports the net change when the version log was trimmed past what the node saw', async () => {
    const a = await node({ versionLogLimit: 3 })
    const b = await node({ versionLogLimit: 3, sharedPollMs: 2 ** 40 })
    const seen: DatabaseChange[] = []
    b.onChange((change) => seen.push(change))
    await a.writeFile('/old.txt', 'old')
    await b.refresh()
    await until('the first write', () => seen.length === 1)
    for (let i = 0; i < 6; i++) await a.writeFile(`/n${i}.txt`, `${i}`)
    await a.delete('/old.txt')
    await b.refresh()
    await until('the net change', () => seen.length === 3)
    const head = a.head().slice(0, 8)
    expect(seen.slice(1).map(brief)).toEqual([
      `entries_deleted /old.txt @${head}`,
      `entries_created /n0.txt,/n1.txt,/n2.txt,/n3.txt,/n4.txt,/n5.txt @${head}`,
    ])
  })

  it('refreshes when the store says a batch committed, without polling', async () => {
    const a = await node()
    const view = watchedView(meta)
    const b = await node({ sharedPollMs: 2 ** 40 }, view)
    const seen: DatabaseChange[] = []
    b.onChange((change) => seen.push(change))
    await a.writeFile('/pushed.txt', 'x')
    // a's batch did not go through b's view: nothing tells b yet.
    await new Promise((resolve) => setTimeout(resolve, 30))
    expect(seen).toEqual([])
    await b.writeFile('/own.txt', 'y')
    await a.writeFile('/later.txt', 'z')
    // Make b's view announce a commit it did not make itself.
    await view.batch([], { sync: false, guards: [] })
    await view.batch([{ type: 'put', space: 'sys', key: 'poke', value: new Uint8Array([1]) }], {
      sync: true,
      guards: [{ space: 'sys', key: 'poke', expect: null }],
    })
    await until('the announced change', () => seen.length === 3)
    expect(seen.map((c) => ('entries' in c ? c.entries[0]?.path : c.type))).toEqual([
      '/pushed.txt',
      '/own.txt',
      '/later.txt',
    ])
  })

  it('polls on an unreferenced timer only while someone listens, and stops at close', async () => {
    const started = vi.spyOn(globalThis, 'setInterval')
    const stopped = vi.spyOn(globalThis, 'clearInterval')
    try {
      const b = await node()
      expect(started).not.toHaveBeenCalled()
      const stop = b.onChange(() => undefined)
      expect(started).toHaveBeenCalledTimes(1)
      const first = started.mock.results[0]?.value as NodeJS.Timeout
      expect(first.hasRef()).toBe(false)
      stop()
      expect(stopped).toHaveBeenCalledWith(first)
      b.onChange(() => undefined)
      expect(started).toHaveBeenCalledTimes(2)
      const second = started.mock.results[1]?.value as NodeJS.Timeout
      await b.close()
      expect(stopped).toHaveBeenCalledWith(second)
    } finally {
      started.mockRestore()
      stopped.mockRestore()
    }
  })

  it('refuses a poll period that is not a positive number', async () => {
    for (const sharedPollMs of [0, -5, Number.NaN])
      await expect(node({ sharedPollMs })).rejects.toThrow(RangeError)
  })

  it('starts no timer in a database that is not shared', async () => {
    const started = vi.spyOn(globalThis, 'setInterval')
    try {
      const db = await Database.open({ meta: unclosedView(meta) })
      opened.push(db)
      db.onChange(() => undefined)
      await db.writeFile('/x', 'x')
      expect(started).not.toHaveBeenCalled()
    } finally {
      started.mockRestore()
    }
  })
})
