import { MemoryLevel } from 'memory-level'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createLevelMetaStore } from '../meta/level-meta-store'
import type { MetaStore } from '../meta/meta-store'
import { readCommitToken, sealWithToken } from './commit-token'
import type { StoredVersionState } from './database-state'
import { SharedState } from './shared-state'

describe('SharedState', () => {
  let meta: MetaStore
  let installed: StoredVersionState[]
  let prepared: number

  const make = (token: number) =>
    new SharedState(
      {
        meta,
        prepare: async (stored) => {
          prepared++
          return () => installed.push(stored)
        },
      },
      token,
    )

  /** Another node's commit: raises the token from `basis` and moves a ref. */
  async function commitElsewhere(basis: number, ref = 'HEAD'): Promise<void> {
    const seal = sealWithToken(basis)
    await meta.batch(
      [...seal.ops, { type: 'put', space: 'ref', key: ref, value: new Uint8Array(32).fill(basis) }],
      { sync: true, guards: seal.guards },
    )
  }

  beforeEach(async () => {
    const level = new MemoryLevel<string, Uint8Array>({ valueEncoding: 'view' })
    await level.open()
    meta = createLevelMetaStore(level)
    installed = []
    prepared = 0
  })

  afterEach(async () => {
    await meta.close()
  })

  it('reads the token only, and reloads nothing, while no other node committed', async () => {
    await commitElsewhere(0)
    const shared = make(1)
    await shared.refresh()
    expect(prepared).toBe(0)
    expect(shared.token).toBe(1)
  })

  it('reloads once for concurrent refreshes after another node committed', async () => {
    const shared = make(0)
    await commitElsewhere(0)
    await Promise.all([shared.refresh(), shared.refresh(), shared.refresh()])
    expect(installed).toHaveLength(1)
    expect(shared.token).toBe(1)
    expect([...(installed[0]?.refs.get('HEAD') ?? [])]).toEqual(new Array(32).fill(0))
  })

  it('refuses a batch formed on a token another node has moved past', async () => {
    await commitElsewhere(0)
    await commitElsewhere(1)
    const seal = sealWithToken(1)
    await expect(meta.batch(seal.ops, { sync: true, guards: seal.guards })).rejects.toMatchObject({
      code: 'CONFLICT',
    })
    expect(await readCommitToken(meta)).toBe(2)
  })

  it('tells a local commit to skip its moves once a reload already holds them', async () => {
    const shared = make(0)
    // This node's batch (basis 0) lands, then another node's; a reload runs before the answer.
    await commitElsewhere(0)
    await commitElsewhere(1)
    await shared.reload()
    expect(shared.token).toBe(2)
    expect(shared.committed(0)).toBe(false)
    expect(shared.token).toBe(2)
    expect(shared.committed(2)).toBe(true)
    expect(shared.token).toBe(3)
  })

  it('never installs a state older than the one in memory', async () => {
    await commitElsewhere(0)
    const shared = make(0)
    const reload = shared.reload()
    // A local commit gets to token 1 while the reload is reading.
    expect(shared.committed(0)).toBe(true)
    await reload
    expect(installed).toHaveLength(0)
    expect(shared.token).toBe(1)
  })
})
