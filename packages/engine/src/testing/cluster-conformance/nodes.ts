import { describe, expect, it } from 'vitest'
import { outcome } from '../meta-store-conformance/async-results'
import type { ClusterSuiteContext } from './fixture'
import { nodeB } from './fixture'
import type { HeartbeatInfo } from '../../cluster/cluster'

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** Heartbeats and the node list: what each node reports, and staleness. */
export function nodesTests(ctx: ClusterSuiteContext): void {
  describe('heartbeat and nodes', () => {
    it('has a non-empty node id', async () => {
      const { a } = await ctx.open()
      expect(typeof a.nodeId).toBe('string')
      expect(a.nodeId).not.toBe('')
    })

    it('lists no node before any heartbeat', async () => {
      const { a } = await ctx.open()
      expect(await a.nodes()).toEqual([])
    })

    it('lists a node after its heartbeat, alive, with its url and version', async () => {
      const { a } = await ctx.open()
      const before = await a.now()
      await a.heartbeat({ url: 'http://10.0.0.1:8080', version: '1.2.3' })
      const after = await a.now()
      const nodes = await a.nodes()
      expect(nodes).toHaveLength(1)
      const [node] = nodes
      expect(node).toMatchObject({
        id: a.nodeId,
        url: 'http://10.0.0.1:8080',
        version: '1.2.3',
        alive: true,
      })
      expect(Number.isFinite(node?.offsetMs)).toBe(true)
      // lastSeen is on the shared clock; allow the offset estimate's error (its round trip).
      expect(node?.lastSeen).toBeGreaterThanOrEqual(before - 1000)
      expect(node?.lastSeen).toBeLessThanOrEqual(after + 1000)
    })

    it('keeps earlier url and version when a heartbeat leaves them out, and moves lastSeen on', async () => {
      const { a } = await ctx.open()
      await a.heartbeat({ url: 'http://a', version: '1' })
      const [first] = await a.nodes()
      await pause(20)
      await a.heartbeat()
      const [second] = await a.nodes()
      expect(second).toMatchObject({ url: 'http://a', version: '1', alive: true })
      expect(second?.lastSeen).toBeGreaterThan(first?.lastSeen ?? Infinity)
      await a.heartbeat({ version: '2' })
      expect((await a.nodes())[0]).toMatchObject({ url: 'http://a', version: '2' })
    })

    it('lists a node without url or version as undefined ones', async () => {
      const { a } = await ctx.open()
      await a.heartbeat()
      expect((await a.nodes())[0]).toMatchObject({ id: a.nodeId, alive: true })
      expect((await a.nodes())[0]?.url).toBeUndefined()
      expect((await a.nodes())[0]?.version).toBeUndefined()
    })

    it('marks a node not alive once its heartbeat is older than the window, alive again after one', async () => {
      const { a } = await ctx.open({ staleAfterMs: 50 })
      await a.heartbeat()
      await pause(200)
      expect((await a.nodes())[0]).toMatchObject({ id: a.nodeId, alive: false })
      await a.heartbeat()
      expect((await a.nodes())[0]).toMatchObject({ id: a.nodeId, alive: true })
    })

    it('refuses malformed heartbeat info with INVALID_INPUT', async () => {
      const { a } = await ctx.open()
      const bad = [{ url: 5 }, { version: 'v'.repeat(2001) }, 'http://a'] as unknown[]
      for (const info of bad)
        expect(await outcome(a.heartbeat(info as HeartbeatInfo))).toBe('INVALID_INPUT')
      expect(await a.nodes()).toEqual([])
    })

    if (ctx.supports.multiNode)
      it('shows every node to every node, ordered by id', async () => {
        const fixture = await ctx.open()
        const { a } = fixture
        const b = nodeB(fixture)
        expect(b.nodeId).not.toBe(a.nodeId)
        await a.heartbeat({ url: 'http://a' })
        expect((await b.nodes()).map((node) => node.id)).toEqual([a.nodeId])
        await b.heartbeat({ url: 'http://b' })
        const ids = [a.nodeId, b.nodeId].sort()
        for (const node of [a, b]) {
          const listed = await node.nodes()
          expect(listed.map((info) => info.id)).toEqual(ids)
          expect(listed.every((info) => info.alive)).toBe(true)
          expect(listed.find((info) => info.id === b.nodeId)?.url).toBe('http://b')
        }
      })

    if (ctx.supports.multiNode)
      it('marks a silent node stale for the others while the live one stays alive', async () => {
        const fixture = await ctx.open({ staleAfterMs: 100 })
        const { a } = fixture
        const b = nodeB(fixture)
        await a.heartbeat()
        await pause(300)
        await b.heartbeat()
        const listed = await b.nodes()
        expect(listed.find((info) => info.id === a.nodeId)?.alive).toBe(false)
        expect(listed.find((info) => info.id === b.nodeId)?.alive).toBe(true)
      })
  })
}
