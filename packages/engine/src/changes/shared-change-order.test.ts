import { MemoryLevel } from 'memory-level'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { parseHash, toHex } from '../internal/hex'
import { sequenceKey } from '../meta/keys'
import { createLevelMetaStore } from '../meta/level-meta-store'
import type { MetaStore } from '../meta/meta-store'
import type { ObjectReader } from '../objects/object-store'
import { recordChanges } from './change-record'
import type { DatabaseChange } from './database-change'
import { SharedChangeOrder } from './shared-change-order'
import type { OrderedState } from './shared-change-order'

const root = (n: number) => new Uint8Array(32).fill(n)
const encoder = new TextEncoder()
// Snapshot creations only: no tree is read.
const objects: ObjectReader = {
  get: () => Promise.reject(new Error('no tree is read here')),
}

async function until(what: string, done: () => boolean): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if (done()) return
    await new Promise((resolve) => setTimeout(resolve, 2))
  }
  throw new Error(`timed out waiting for ${what}`)
}

describe('SharedChangeOrder', () => {
  let level: MemoryLevel<string, Uint8Array>
  let meta: MetaStore
  let state: OrderedState
  let emitted: DatabaseChange[]
  let order: SharedChangeOrder

  /** Another node (or this one) logged snapshot `name` at `seq`. */
  async function logged(seq: number, name: string): Promise<void> {
    const record = { ref: `snap/${name}`, from: null, to: toHex(root(seq)), at: seq }
    await meta.batch(
      [
        {
          type: 'put',
          space: 'log',
          key: sequenceKey(seq),
          value: encoder.encode(JSON.stringify(record)),
        },
      ],
      { sync: false },
    )
    state.refs = new Map([...state.refs, [`snap/${name}`, root(seq)]])
    state.logSeq = seq
  }

  const localChange = (name: string): DatabaseChange => ({
    type: 'version_created',
    at: 0,
    fork: undefined,
    version: 'local',
    kind: 'snapshot',
    name,
  })

  beforeEach(async () => {
    level = new MemoryLevel<string, Uint8Array>({ valueEncoding: 'view' })
    await level.open()
    meta = createLevelMetaStore(level)
    state = { refs: new Map(), infos: new Map(), logSeq: 0 }
    emitted = []
    order = new SharedChangeOrder({
      objects,
      loggedMoves: async function* (first, last) {
        for await (const [key, value] of meta.iterate('log', {
          gte: sequenceKey(first),
          lte: sequenceKey(last),
        })) {
          const record = JSON.parse(new TextDecoder().decode(value)) as {
            ref: string
            to: string
            at: number
          }
          yield {
            seq: Number(key),
            move: { ref: record.ref, from: null, to: parseHash(record.to), at: record.at },
          }
        }
      },
      state: () => state,
      emit: (changes) => emitted.push(...changes),
      listening: () => true,
      now: () => 0,
    })
  })

  afterEach(async () => {
    await order.close()
    await meta.close()
  })

  it('reports a local batch that a reload installed first once, at its place, with its own changes', async () => {
    order.writing(2, 1)
    let commit!: () => void
    order.track(new Promise<void>((resolve) => (commit = resolve)))
    await logged(1, 'remote')
    await logged(2, 'local')
    order.installed(2)
    await until('the remote move', () => emitted.length === 1)
    // The local batch holds sequence 2: nothing more until it settles.
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(emitted.map((c) => c.version)).toEqual([toHex(root(1))])
    commit()
    await Promise.resolve()
    const change = localChange('local')
    const moves = [{ ref: 'snap/local', from: null, to: root(2), at: 0 }]
    order.committed(moves, recordChanges([change], moves, 2))
    await until('the local group', () => emitted.length === 2)
    expect(emitted[1]).toEqual({ ...change, seq: 2 })
    expect(emitted[0]?.seq).toBe(1)
    expect(order.cursor).toBe(2)
  })

  it('reports from the log the sequences of a local batch that lost', async () => {
    order.writing(1, 1)
    let lose!: (err: Error) => void
    order.track(new Promise<void>((_resolve, reject) => (lose = reject)))
    await logged(1, 'winner')
    order.installed(1)
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(emitted).toEqual([])
    lose(new Error('CONFLICT'))
    await until('the winner', () => emitted.length === 1)
    expect(emitted[0]).toMatchObject({ type: 'version_created', name: 'winner', at: 1 })
  })

  it('queues a local group behind moves still being read, and reports each once', async () => {
    await logged(1, 'first')
    order.installed(1)
    // Committed on the state of sequence 1 while sequence 1 is still being read.
    order.writing(2, 1)
    const batch = Promise.resolve()
    order.track(batch)
    await batch
    const change = localChange('second')
    const moves = [{ ref: 'snap/second', from: null, to: root(2), at: 0 }]
    order.committed(moves, recordChanges([change], moves, 2))
    order.installed(2)
    await until('both', () => emitted.length === 2)
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(emitted.map((c) => (c.type === 'version_created' ? c.name : c.type))).toEqual([
      'first',
      'second',
    ])
  })
})
