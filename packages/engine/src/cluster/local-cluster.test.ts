import { describe, expect, it } from 'vitest'
import { runClusterConformance } from '../testing/cluster-conformance'
import { createLocalCluster } from './local-cluster'

runClusterConformance(
  'local',
  async ({ staleAfterMs }) => {
    const a = createLocalCluster('local', { staleAfterMs })
    return { a, close: () => a.close() }
  },
  { multiNode: false },
)

describe('createLocalCluster', () => {
  it('reports one node at offset 0 on its clock, which never goes backwards', async () => {
    let now = 5000
    const cluster = createLocalCluster('n1', { clock: { now: () => now }, staleAfterMs: 10 })
    await cluster.heartbeat({ url: 'http://n1' })
    expect(await cluster.nodes()).toEqual([
      { id: 'n1', url: 'http://n1', version: undefined, lastSeen: 5000, offsetMs: 0, alive: true },
    ])
    now = 5011
    expect((await cluster.nodes())[0]?.alive).toBe(false)
    now = 4000
    expect(await cluster.now()).toBe(5011)
  })

  it('refuses an empty node id or a bad window with INVALID_INPUT', () => {
    expect(() => createLocalCluster('')).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }))
    expect(() => createLocalCluster('n', { staleAfterMs: 0 })).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT' }),
    )
  })
})
