import { randomBytes } from 'node:crypto'
import { Database } from '@svcdb/engine'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fingerprint, pollUntil, startPeerNode } from '../kit/peer-servers'
import type { PeerNode } from '../kit/peer-servers'
import { startTcpProxy } from '../kit/tcp-proxy'
import type { TcpProxy } from '../kit/tcp-proxy'

/**
 * Issue 21: B is SIGKILLed while pulling a 40 MiB change from A (held in the middle by the
 * proxy between them), then restarted on the same data directory: it must converge, verify,
 * pin A's version exactly once, and not be sent again the chunks it had committed.
 */
let a: PeerNode
let b: PeerNode | undefined
let proxy: TcpProxy

const FILES = 40
const SIZE = 1024 * 1024
const files = new Map(
  Array.from({ length: FILES }, (_, i) => [
    `/bulk/${String(i).padStart(2, '0')}.bin`,
    new Uint8Array(randomBytes(SIZE)),
  ]),
)
let head = ''

interface Stats {
  counts: { chunks: number }
}

beforeAll(async () => {
  a = await startPeerNode()
  for (const [path, bytes] of files) head = await a.write(path, bytes)
  const port = Number(new URL(a.url).port)
  proxy = await startTcpProxy({ target: { host: '127.0.0.1', port } })
}, 120_000)
afterAll(async () => {
  await b?.dispose()
  await proxy?.close()
  await a?.dispose()
})

/** Opens B's data directory with the engine (B must not be running): its pins and a full verify. */
async function inspect(dataDir: string) {
  const db = await Database.open({ path: dataDir })
  try {
    const verified = await db.verify()
    return {
      pins: await db.peerPins.list(),
      head: db.head(),
      chunks: db.stats().counts.chunks,
      verify: { ok: verified.ok, missing: verified.missing, corrupt: verified.corrupt },
    }
  } finally {
    await db.close()
  }
}

describe('kill -9 of a node in the middle of a pull', () => {
  it('resumes after a restart, converges, verifies and pins A’s version', async () => {
    // The link hangs once 24 MiB of the ~40 MiB archive went through: B is then mid-pull (and
    // has committed the first 16 MiB of chunks), for as long as it takes to kill it, however
    // fast loopback is.
    proxy.stallAfter(24 * SIZE)
    const node = await startPeerNode({ peers: [{ ...a.link('a'), url: proxy.url }] })
    b = node
    await pollUntil(
      'B to be mid-pull',
      async () => proxy.forwarded(),
      (n) => n >= 24 * SIZE,
    )
    // Killed once B has committed its first 16 MiB of chunks (64 KiB on average), however far
    // behind the proxy it reads.
    await pollUntil(
      'B to have committed chunks of the pull',
      async () =>
        ((await (await node.request('GET', '/system/stats')).json()) as Stats).counts.chunks,
      (n) => n >= 200,
    )
    await node.kill()
    const atKill = proxy.forwarded()
    expect(atKill).toBeLessThan(FILES * SIZE)
    proxy.restore()

    // Nothing half-applied: no pin, HEAD still the empty database's, and what is stored verifies.
    const crashed = await inspect(node.dataDir)
    expect(crashed.pins).toEqual([])
    expect(crashed.head).not.toBe(head)
    expect(crashed.verify).toEqual({ ok: true, missing: [], corrupt: [] })
    // …but the chunks it had committed before the kill are stored.
    expect(crashed.chunks).toBeGreaterThanOrEqual(200)

    await node.restart()
    const want = Object.fromEntries([...files].map(([p, bytes]) => [p, fingerprint(bytes)]))
    await pollUntil(
      'B to hold all 40 files after the restart',
      async () => {
        const seen: Record<string, string> = {}
        for (const path of files.keys()) seen[path] = fingerprint(await node.read(path))
        return seen
      },
      (seen) => JSON.stringify(seen) === JSON.stringify(want),
      90_000,
    )
    const peer = await pollUntil(
      'B’s cursor at A’s version',
      () => node.peer('a'),
      (p) => p.cursor === head && p.state === 'ok',
    )
    expect(peer.lag_entries).toBe(0)
    expect(await node.headPrefix()).toBe(head.slice(0, 12))
    expect(await node.forks()).toEqual([])
    const sync = await node.sync()
    expect(sync).toMatchObject({ failing_peers: 0, sync_lag_entries: { a: 0 } })
    const gc = await node.request('POST', '/system/gc?dry_run=true')
    expect(gc.status).toBe(200)
    // What B had before the kill was not sent again: the resumed pull moved at most the
    // 24 MiB it lacked, not the whole 40.
    expect(proxy.forwarded() - atKill).toBeLessThan((FILES - 12) * SIZE)

    // Resumed from the durable cursor: the next change comes as a patch, not the 40 MiB again.
    const sentBefore = proxy.forwarded()
    const small = new TextEncoder().encode('one more')
    head = await a.write('/bulk/small.txt', small)
    await pollUntil(
      'B to hold the next change',
      async () => fingerprint(await node.read('/bulk/small.txt')),
      (f) => f === fingerprint(small),
    )
    await pollUntil(
      'B’s cursor at A’s new version',
      () => node.peer('a'),
      (p) => p.cursor === head,
    )
    expect(proxy.forwarded() - sentBefore).toBeLessThan(SIZE)

    await node.server.stop()
    const after = await inspect(node.dataDir)
    expect(after.verify).toEqual({ ok: true, missing: [], corrupt: [] })
    expect(after.head).toBe(head)
    expect(after.pins).toEqual([{ name: 'a', version: head }])
  }, 180_000)
})
