import { randomBytes } from 'node:crypto'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openTempDatabase, startTestApp } from '../../test/kit'
import type { TempDatabase, TestApp } from '../../test/kit'
import { disabledAuthenticator } from '../routing/principal'
import { versionRouteHandlers } from '../routes/versions/version-route-handlers'
import { createPeerClock } from './peer-clock'
import { createPeerHttp } from './peer-http'
import type { PullServices } from './pull-round'
import { chunksOf } from './pull-archive'
import { openPullSource } from './pull-source'

/** The peer's version routes in process, and a database here that pulls from them. */
let peer: TestApp
let here: TempDatabase
/** Every request the peer saw: path and the size of its body. */
let seen: { path: string; body: number }[]

beforeEach(async () => {
  peer = await startTestApp(versionRouteHandlers, { authenticator: disabledAuthenticator })
  here = await openTempDatabase('svcdb-pull-source-')
  seen = []
})
afterEach(async () => {
  await peer.close()
  await here.destroy()
})

type Fetch = typeof fetch

/** The peer in process; `older` answers 404 to the chunk listing as a server before it would. */
function peerFetch(older = false): Fetch {
  return async (input, init) => {
    const url = new URL(String(input))
    const body =
      init?.body === undefined || init.body === null ? 0 : (init.body as Uint8Array).length
    seen.push({ path: url.pathname + url.search, body })
    if (older && url.pathname === '/versions/chunks')
      return Response.json({ error: { code: 'NOT_FOUND', message: 'no route' } }, { status: 404 })
    return peer.app.request(url.pathname + url.search, init)
  }
}

function services(fetchImpl: Fetch): PullServices {
  const config = { name: 'a', url: 'http://peer.test' }
  return {
    db: here.db,
    peer: config,
    http: createPeerHttp(config, fetchImpl),
    clock: createPeerClock(),
    now: () => Date.now(),
  }
}

const signal = () => new AbortController().signal

/** Imports what a source sends, promoting it; the archive's size in bytes. */
async function land(fetchImpl: Fetch, cursor?: string): Promise<number> {
  const source = await openPullSource(services(fetchImpl), cursor, signal())
  expect(source.target).toBe(peer.db.head())
  let size = 0
  async function* counted() {
    for await (const part of chunksOf(await source.body())) {
      size += part.length
      yield part
    }
  }
  await here.db.importArchive(counted(), { force: true, promote: true })
  return size
}

describe('openPullSource', () => {
  it('is not sent the chunks stored here, from its own writes or an earlier pull', async () => {
    const shared = randomBytes(400_000)
    await peer.db.writeFile('/data/shared.bin', shared)
    await peer.db.writeFile('/data/own.bin', randomBytes(100_000))
    await here.db.writeFile('/mine/same.bin', shared)

    const size = await land(peerFetch())
    expect(size).toBeLessThan(200_000)
    expect(here.db.head()).toBe(peer.db.head())
    expect(Buffer.from(await here.db.readFile('/data/shared.bin')).equals(shared)).toBe(true)
    // The listing, then the export naming what is held (32 bytes an id).
    expect(seen.map((r) => r.path)).toEqual([
      '/versions/chunks',
      `/versions/export?hash=${peer.db.head()}`,
    ])
    expect(seen[1]?.body).toBeGreaterThan(0)
    expect((seen[1]?.body ?? 0) % 32).toBe(0)

    // Next time only the patch since the cursor is listed and sent.
    const cursor = peer.db.head()
    await peer.db.writeFile('/data/next.txt', 'next')
    seen = []
    expect(await land(peerFetch(), cursor)).toBeLessThan(10_000)
    expect(seen.map((r) => r.path)).toEqual([
      `/versions/chunks?from=${cursor}`,
      `/versions/diff?from=${cursor}&to=${peer.db.head()}`,
    ])
  })

  it('takes the whole export when the peer collected the cursor', async () => {
    await peer.db.writeFile('/a.txt', 'a')
    const gone = 'ab'.repeat(32)
    await land(peerFetch(), gone)
    expect(seen.map((r) => r.path)).toEqual([
      `/versions/chunks?from=${gone}`,
      '/versions/chunks',
      `/versions/export?hash=${peer.db.head()}`,
    ])
    expect(here.db.head()).toBe(peer.db.head())
  })

  it('asks an older peer, which cannot list chunks, for the whole archive', async () => {
    const bytes = randomBytes(300_000)
    await peer.db.writeFile('/data/a.bin', bytes)
    await here.db.writeFile('/mine/a.bin', bytes)
    const size = await land(peerFetch(true))
    expect(size).toBeGreaterThan(300_000)
    expect(seen.map((r) => r.path)).toEqual(['/versions/chunks', '/versions/export'])
    expect(Buffer.from(await here.db.readFile('/data/a.bin')).equals(bytes)).toBe(true)
  })

  it('asks again without the list when something on the way refuses a body that large', async () => {
    const bytes = randomBytes(200_000)
    await peer.db.writeFile('/data/a.bin', bytes)
    await here.db.writeFile('/mine/a.bin', bytes)
    // A proxy in front of the peer with a small body limit, as nginx's 1 MB default is.
    const limited: Fetch = async (input, init) => {
      if (init?.body !== undefined && init.body !== null) {
        seen.push({ path: 'refused', body: (init.body as Uint8Array).length })
        return new Response('<html>413 Request Entity Too Large</html>', { status: 413 })
      }
      return peerFetch()(input, init)
    }
    expect(await land(limited)).toBeGreaterThan(200_000)
    expect(seen.map((r) => r.path)).toEqual([
      '/versions/chunks',
      'refused',
      `/versions/export?hash=${peer.db.head()}`,
    ])
    expect(Buffer.from(await here.db.readFile('/data/a.bin')).equals(bytes)).toBe(true)
  })

  it('refuses an archive of another version than the listing named, importing nothing', async () => {
    await peer.db.writeFile('/a.txt', 'one')
    const listed = peer.db.head()
    // A peer that answers its newest HEAD whatever version was asked for.
    const lying: Fetch = async (input, init) =>
      peerFetch()(String(input).replace(/\?hash=[0-9a-f]+/, ''), init)
    const source = await openPullSource(services(lying), undefined, signal())
    expect(source.target).toBe(listed)
    await peer.db.writeFile('/a.txt', 'two')
    const before = here.db.head()
    await expect(source.body()).rejects.toMatchObject({ code: 'INVALID_ARCHIVE' })
    expect(here.db.head()).toBe(before)
  })
})
