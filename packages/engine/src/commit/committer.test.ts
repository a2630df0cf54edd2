import { createHash } from 'node:crypto'
import { MemoryLevel } from 'memory-level'
import { describe, expect, it } from 'vitest'
import { createLevelChunkStore } from '../chunks/level-chunk-store'
import type { Hasher } from '../hashing/hasher'
import { toHex } from '../internal/hex'
import { createLevelMetaStore } from '../meta/level-meta-store'
import type { MetaStore } from '../meta/meta-store'
import { ObjectStore } from '../objects/object-store'
import type { RefMove } from '../state/ref-move'
import { Committer } from './committer'
import type { Mutation } from './mutation'

const hasher: Hasher = {
  algorithm: 'sha256',
  hashDomain: (domain, bytes) =>
    new Uint8Array(createHash('sha256').update(`${domain}:`).update(bytes).digest()),
  createStream: () => {
    throw new Error('not needed')
  },
}

/** A promise and the function that resolves it: a step of the committer a test can await. */
function signal(): { fired: Promise<void>; fire: () => void } {
  let fire = (): void => undefined
  const fired = new Promise<void>((resolve) => (fire = resolve))
  return { fired, fire }
}

/**
 * Resolves once the committer has done everything it can until the test opens a gate, to
 * check that something did not happen. The stores here are in memory and settle on the
 * microtask queue, which Node drains entirely before it runs an immediate: no clock involved.
 */
function quiescent(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve))
}

/**
 * A metadata store whose next batches can be held back or made to fail. Each hold tells when
 * its batch has arrived (`entered`) and lets it go on when the test calls `release`.
 */
function controllableMeta(inner: MetaStore) {
  const gates: { entered: () => void; opened: Promise<void>; fail: boolean }[] = []
  const meta: MetaStore = {
    ...inner,
    async batch(ops, options) {
      const gate = gates.shift()
      if (gate !== undefined) {
        gate.entered()
        await gate.opened
        if (gate.fail) throw new Error('disk full')
      }
      return inner.batch(ops, options)
    },
  }
  const hold = (fail: boolean) => {
    const entered = signal()
    const opened = signal()
    gates.push({ entered: entered.fire, opened: opened.fired, fail })
    return { entered: entered.fired, release: opened.fire }
  }
  return { meta, hold }
}

/**
 * A mutation that puts a leaf page holding one entry name, on top of whatever root it gets;
 * `onApply` is called each time it is applied.
 */
function mutation(
  name: string,
  seen: string[],
  speculative = false,
  onApply?: () => void,
): Mutation<string> {
  return {
    ref: 'HEAD',
    speculative,
    async apply({ root, objects }) {
      seen.push(toHex(root))
      onApply?.()
      const next = objects.put({
        type: 'leaf',
        entries: [
          {
            name,
            kind: 'symlink',
            hash: root,
            size: 0,
            createdAt: 0,
            updatedAt: 0,
            files: 0,
            dirs: 0,
            links: 0,
          },
        ],
      })
      return { root: next, result: toHex(next) }
    },
  }
}

/** A committer over memory-level whose HEAD starts at the zero hash; records committed moves. */
function setupCommitter(meta: MetaStore) {
  const refs = new Map<string, Uint8Array>([['HEAD', new Uint8Array(32)]])
  const committed: RefMove[] = []
  const committer = new Committer({
    meta,
    objects: new ObjectStore(meta, hasher, 1 << 20),
    chunks: createLevelChunkStore({ meta }),
    now: () => 0,
    rootOf: (ref) => refs.get(ref) as Uint8Array,
    groupOps: () => [],
    onCommitted: (moves) => {
      for (const m of moves) if (m.to !== null) refs.set(m.ref, m.to)
      committed.push(...moves)
    },
  })
  return { committer, refs, committed, head: () => toHex(refs.get('HEAD') as Uint8Array) }
}

describe('Committer', () => {
  it('rejects a group whose batch fails, keeps the ref, and builds the next group on the durable root', async () => {
    const inner = createLevelMetaStore(new MemoryLevel())
    const { meta, hold } = controllableMeta(inner)
    const zero = new Uint8Array(32)
    const { committer, committed, head } = setupCommitter(meta)
    const seen: string[] = []
    const gate = hold(true)
    const first = committer.submit(mutation('a', seen))
    await gate.entered
    // Queued while the first group is stuck in its batch: it lands in the next group.
    const second = committer.submit(mutation('b', seen))
    gate.release()
    await expect(first).rejects.toThrow('disk full')
    const b = await second
    expect(committed).toHaveLength(1)
    expect(seen).toEqual([toHex(zero), toHex(zero)])
    expect(head()).toBe(b)
    await committer.idle()
  })

  it('applies every mutation of a group in order against the latest root, sharing batches', async () => {
    const inner = createLevelMetaStore(new MemoryLevel())
    let batches = 0
    const meta: MetaStore = {
      ...inner,
      batch: (ops, options) => (batches++, inner.batch(ops, options)),
    }
    const { committer, head } = setupCommitter(meta)
    const seen: string[] = []
    const results = await Promise.all(
      ['a', 'b', 'c', 'd'].map((n) => committer.submit(mutation(n, seen))),
    )
    // Each mutation saw the root the previous one produced.
    expect(seen.slice(1)).toEqual(results.slice(0, -1))
    expect(head()).toBe(results[3])
    // The three queued while the first was being applied joined its group: one batch for all.
    expect(batches).toBe(1)
  })

  it('runs an exclusive task between groups: nothing commits while it runs', async () => {
    const meta = createLevelMetaStore(new MemoryLevel())
    const { committer, committed } = setupCommitter(meta)
    const seen: string[] = []
    let release = (): void => undefined
    const gate = new Promise<void>((resolve) => (release = resolve))
    const before = committer.submit(mutation('a', seen))
    let commitsSeenInside = -1
    const inside = signal()
    const exclusive = committer.exclusive(async () => {
      commitsSeenInside = committed.length
      inside.fire()
      await gate
      return committed.length
    })
    const after = committer.submit(mutation('b', seen))
    await before
    await inside.fired
    await quiescent()
    // The later mutation waits for the task: not even applied yet.
    expect(seen).toHaveLength(1)
    expect(committed).toHaveLength(1)
    release()
    expect(await exclusive).toBe(1)
    await after
    expect(commitsSeenInside).toBe(1)
    expect(committed).toHaveLength(2)
    await expect(
      committer.exclusive(() => Promise.reject(new Error('task failed'))),
    ).rejects.toThrow('task failed')
    // A failed task does not stop the queue.
    await committer.submit(mutation('c', seen))
    expect(committed).toHaveLength(3)
  })

  it('moves, creates and removes several refs from one mutation', async () => {
    const meta = createLevelMetaStore(new MemoryLevel())
    const { committer, committed, refs } = setupCommitter(meta)
    const root = new Uint8Array(32).fill(1)
    await committer.submit({
      async apply({ rootOf }) {
        expect(rootOf('snap/x')).toBeUndefined()
        return {
          refs: [
            { ref: 'snap/x', root },
            { ref: 'HEAD', root },
          ],
          result: undefined,
        }
      },
    })
    expect(refs.get('snap/x')).toEqual(root)
    await committer.submit({
      ref: 'snap/x',
      async apply() {
        return { refs: [{ ref: 'snap/x', root: null }], result: undefined }
      },
    })
    expect(committed.at(-1)).toMatchObject({ ref: 'snap/x', from: root, to: null })
    await expect(
      committer.submit({ ref: 'fork/none', apply: async () => ({ result: undefined }) }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' })
    expect(await meta.get('ref', 'snap/x')).toBeUndefined()
  })

  it('forms the next group of speculative mutations while the previous one syncs', async () => {
    const inner = createLevelMetaStore(new MemoryLevel())
    const { meta, hold } = controllableMeta(inner)
    const { committer, committed, head } = setupCommitter(meta)
    const seen: string[] = []
    const gate = hold(false)
    const first = committer.submit(mutation('a', seen, true))
    await gate.entered
    let answered = false
    const applied = signal()
    const second = committer
      .submit(mutation('b', seen, true, applied.fire))
      .finally(() => (answered = true))
    // Applied on top of the group still syncing, but not answered before that group is durable.
    await applied.fired
    await quiescent()
    expect(seen).toHaveLength(2)
    expect(answered).toBe(false)
    expect(committed).toHaveLength(0)
    gate.release()
    const a = await first
    const b = await second
    expect(seen[1]).toBe(a)
    expect(committed.map((m) => toHex(m.to as Uint8Array))).toEqual([a, b])
    expect(head()).toBe(b)
  })

  it('applies a group formed on a failed one again on the durable root, errors included', async () => {
    const inner = createLevelMetaStore(new MemoryLevel())
    const { meta, hold } = controllableMeta(inner)
    const zero = toHex(new Uint8Array(32))
    const { committer, committed, head } = setupCommitter(meta)
    const seen: string[] = []
    const gate = hold(true)
    const first = committer.submit(mutation('a', seen, true))
    await gate.entered
    const second = committer.submit(mutation('b', seen, true))
    // Fails on its first pass (on top of 'a', which is not durable yet): an answer held back.
    const failedOnA = signal()
    const onlyOnDurable = committer.submit<string>({
      ref: 'HEAD',
      speculative: true,
      async apply(context) {
        if (seen.length === 2) {
          failedOnA.fire()
          throw new Error('built on a')
        }
        return { result: toHex(context.root) }
      },
    })
    await failedOnA.fired
    expect(seen).toHaveLength(2)
    gate.release()
    await expect(first).rejects.toThrow('disk full')
    const b = await second
    // b applied twice: on a's root, then again on the durable root.
    expect(seen).toHaveLength(3)
    expect(seen[2]).toBe(zero)
    expect(await onlyOnDurable).toBe(b)
    expect(committed.map((m) => toHex(m.to as Uint8Array))).toEqual([b])
    expect(head()).toBe(b)
  })

  it('keeps a mutation that is not speculative waiting until the group syncing is durable', async () => {
    const inner = createLevelMetaStore(new MemoryLevel())
    const { meta, hold } = controllableMeta(inner)
    const { committer, head } = setupCommitter(meta)
    const seen: string[] = []
    const gate = hold(false)
    const first = committer.submit(mutation('a', seen, true))
    await gate.entered
    const second = committer.submit(mutation('b', seen))
    const third = committer.submit(mutation('c', seen, true))
    await quiescent()
    // Neither b nor c (queued after it) ran: order is kept.
    expect(seen).toHaveLength(1)
    gate.release()
    const a = await first
    const b = await second
    const c = await third
    expect(seen).toEqual([seen[0], a, b])
    expect(head()).toBe(c)
  })
})
