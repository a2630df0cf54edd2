import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fingerprint, pollUntil, startPeerNode } from '../kit/peer-servers'
import type { PeerNode } from '../kit/peer-servers'

/**
 * Issue 21: three built servers on loopback, B pulling from A and C from B, each with the
 * other's root key. Every wait is bounded and fails showing what it last saw.
 */
let a: PeerNode
let b: PeerNode
let c: PeerNode

beforeAll(async () => {
  a = await startPeerNode()
  b = await startPeerNode({ peers: [a.link('a')] })
  c = await startPeerNode({ peers: [b.link('b')] })
}, 60_000)
afterAll(async () => {
  await Promise.all([c?.dispose(), b?.dispose(), a?.dispose()])
})

/** Random files of several sizes: empty, one byte, under and over a chunk, over 1 MiB. */
const files = new Map(
  [0, 1, 4_109, 200_000, 3 * 1024 * 1024 + 17].map((size) => [
    `/sizes/${size}.bin`,
    new Uint8Array(randomBytes(size)),
  ]),
)

/** Waits until `node` holds every file of `expected` byte for byte. */
async function converged(node: PeerNode, expected: Map<string, Uint8Array | undefined>) {
  const want = Object.fromEntries([...expected].map(([path, bytes]) => [path, fingerprint(bytes)]))
  const read = async () => {
    const seen: Record<string, string> = {}
    for (const path of expected.keys()) seen[path] = fingerprint(await node.read(path))
    return seen
  }
  const seen = await pollUntil(
    `${node.url} to hold ${[...expected.keys()].join(', ')}`,
    read,
    (s) => JSON.stringify(s) === JSON.stringify(want),
  )
  expect(seen).toEqual(want)
}

describe('peer replication between built servers', () => {
  it('copies a write on A to B byte for byte and reports the sync in B’s stats', async () => {
    for (const [path, bytes] of files) await a.write(path, bytes)
    await converged(b, files)

    const sync = await pollUntil(
      'B’s stats to show peer a synced and caught up',
      () => b.sync(),
      (s) => s?.sync_lag_entries.a === 0 && s.active_peers === 1 && s.last_sync_ms > 0,
    )
    expect(sync).toEqual({
      active_peers: 1,
      failing_peers: 0,
      last_sync_ms: expect.any(Number) as number,
      sync_lag_entries: { a: 0 },
    })
    expect(sync?.last_sync_ms).toBeGreaterThan(0)
    // A fast-forward: B's HEAD is A's version, and its cursor says so.
    const head = await a.headPrefix()
    expect(await b.headPrefix()).toBe(head)
    const peer = await b.peer('a')
    expect(peer).toMatchObject({ name: 'a', url: a.url, scope: null, state: 'ok', lag_entries: 0 })
    expect(peer.cursor?.slice(0, 12)).toBe(head)
    expect(await b.forks()).toEqual([])
    // The HEAD log names the import and who made it.
    const log = (await (await b.request('GET', '/versions/log')).json()) as {
      items: { head: string; cause: string; by: string | null }[]
    }
    expect(log.items[0]).toMatchObject({ cause: 'import', by: 'peer:a' })
    expect(log.items[0]?.head.slice(0, 12)).toBe(head)
  }, 60_000)

  it('shows no sync section on a server without peers', async () => {
    expect(await a.sync()).toBeUndefined()
    const stats = (await (await a.request('GET', '/system/stats')).json()) as object
    expect(Object.keys(stats)).not.toContain('sync')
  })

  it('propagates a delete on A to B', async () => {
    await a.write('/doomed.txt', new TextEncoder().encode('short-lived'))
    await converged(b, new Map([['/doomed.txt', new TextEncoder().encode('short-lived')]]))
    await a.remove('/doomed.txt')
    await converged(b, new Map([['/doomed.txt', undefined]]))
    // Only that file went.
    await converged(b, files)
    expect(await b.headPrefix()).toBe(await a.headPrefix())
  }, 60_000)

  it('carries a write on A through B to C (A → B → C converges)', async () => {
    const bytes = new Uint8Array(randomBytes(1_500_000))
    await a.write('/chain/far.bin', bytes)
    await converged(c, new Map([...files, ['/chain/far.bin', bytes]]))
    const head = await a.headPrefix()
    await pollUntil(
      'C’s HEAD to be A’s version',
      () => c.headPrefix(),
      (h) => h === head,
    )
    const sync = await pollUntil(
      'C’s stats to show peer b caught up',
      () => c.sync(),
      (s) => s?.sync_lag_entries.b === 0 && s.failing_peers === 0,
    )
    expect(sync?.sync_lag_entries).toEqual({ b: 0 })
    expect(await c.forks()).toEqual([])
  }, 60_000)
})
