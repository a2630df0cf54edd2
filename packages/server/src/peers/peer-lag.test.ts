import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startTestApp } from '../../test/kit'
import type { TestApp } from '../../test/kit'
import { versionChangesRoute } from '../routes/versions/version-changes-route'
import { createPeerHttp } from './peer-http'
import { MAX_MEASURED_LAG, measurePeerLag } from './peer-lag'

/** The peer: its changes listing, in process, over the database it fills. */
let peer: TestApp
let asked: string[]
beforeEach(async () => {
  peer = await startTestApp((deps) => [versionChangesRoute(deps)])
  asked = []
})
afterEach(async () => {
  await peer?.close()
})

const viaApp: typeof fetch = async (input, init) => {
  asked.push(String(input))
  return peer.app.request(String(input), init)
}
const http = () => createPeerHttp({ name: 'a', url: 'http://peer.test', key: peer.rootKey }, viaApp)
const signal = new AbortController().signal

describe('measurePeerLag', () => {
  it('counts the entries the peer changed between the cursor and its version', async () => {
    await peer.db.writeFile('/keep.txt', 'k')
    await peer.db.writeFile('/gone.txt', 'g')
    const cursor = peer.db.head()
    await peer.db.writeFile('/pub/a.txt', 'a')
    await peer.db.writeFile('/pub/b.txt', 'b')
    await peer.db.writeFile('/keep.txt', 'k2')
    await peer.db.delete('/gone.txt')
    const target = peer.db.head()
    // /pub (added, shown once at its highest path), /keep.txt (modified), /gone.txt (deleted).
    expect(await measurePeerLag(http(), { cursor, target, signal })).toBe(3)
    expect(await measurePeerLag(http(), { cursor, target, scope: '/pub', signal })).toBe(1)
    expect(await measurePeerLag(http(), { cursor: target, target, signal })).toBe(0)
  })

  it('reads pages of 1000 and stops counting at 10,000', async () => {
    const cursor = (await peer.db.writeFile('/first.txt', '1')).version
    await peer.db.writeFiles(
      Array.from({ length: MAX_MEASURED_LAG + 500 }, (_, i) => ({
        path: `/f${i}.txt`,
        data: `${i}`,
      })),
    )
    const lag = await measurePeerLag(http(), { cursor, target: peer.db.head(), signal })
    expect(lag).toBe(MAX_MEASURED_LAG)
    expect(asked).toHaveLength(10)
    expect(asked.every((url) => url.includes('limit=1000'))).toBe(true)
  }, 60_000)

  it('without a cursor counts the entries of the peer’s HEAD from its stats, unless scoped', async () => {
    const stats: typeof fetch = async (input) => {
      asked.push(String(input))
      return Response.json({ counts: { files: 40, directories: 3, symlinks: 1 } })
    }
    const viaStats = createPeerHttp({ name: 'a', url: 'http://peer.test' }, stats)
    const target = 'f'.repeat(64)
    expect(await measurePeerLag(viaStats, { cursor: undefined, target, signal })).toBe(44)
    expect(asked).toEqual(['http://peer.test/system/stats'])
    expect(
      await measurePeerLag(viaStats, { cursor: undefined, target, scope: '/p', signal }),
    ).toBeUndefined()
  })
})
