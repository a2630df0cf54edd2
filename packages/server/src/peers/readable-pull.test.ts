import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { TempDatabase, TestApp } from '../../test/kit'
import { startReadablePeer } from '../../test/kit/readable-peer'
import type { ReadablePeer, ReadablePullOptions } from '../../test/kit/readable-peer'
import { createPeerHttp } from './peer-http'
import { peerKeyMode } from './peer-key-mode'
import type { PullOutcome } from './pull-round'
import { loadReadableCursor } from './readable-cursor'

/** The peer: the routes a readable pull uses, in process. Here: the database it fills. */
let fixture: ReadablePeer
let peer: TestApp
let here: TempDatabase
let readKey: string
let viaApp: Fetch

beforeEach(async () => {
  fixture = await startReadablePeer()
  ;({ peer, here, readKey, viaApp } = fixture)
})
afterEach(() => fixture?.close())

type Fetch = typeof fetch
const pull = (options?: ReadablePullOptions): Promise<PullOutcome> => fixture.pull(options)

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes)
const read = async (path: string, fork?: string) => {
  const ws = fork === undefined ? here.db : here.db.fork(fork)
  return ws.readFile(path).then(text, () => undefined)
}

/** A fetch that hands the peer's answer to GET `path` through `change`. */
function tampering(path: string, change: (bytes: Uint8Array) => Uint8Array): Fetch {
  return async (input, init) => {
    const res = await viaApp(input, init)
    if (!String(input).includes(`/files${path}?version=`)) return res
    const body = change(new Uint8Array(await res.arrayBuffer()))
    return new Response(body as Uint8Array<ArrayBuffer>, {
      status: res.status,
      headers: res.headers,
    })
  }
}

describe('pullOnce with a key that may only read', () => {
  it('copies exactly what the key may read under the scope, then has nothing more to do', async () => {
    await peer.db.writeFile('/public/a.txt', 'alpha', { contentType: 'text/plain' })
    await peer.db.writeFile('/public/locked/x.txt', 'listed, not readable')
    await peer.db.writeFile('/private/s.txt', 'secret')
    await peer.db.symlink('/public/link', '/public/a.txt')
    expect(
      await peerKeyMode(
        createPeerHttp({ name: 'a', url: 'http://p', key: readKey }, viaApp),
        'a',
        new AbortController().signal,
      ),
    ).toBe('readable')

    const first = await pull({ scope: '/public' })
    expect(first).toMatchObject({ kind: 'fast-forward', version: peer.db.head(), skipped: 1 })
    expect(await read('/public/a.txt')).toBe('alpha')
    expect((await here.db.stat('/public/a.txt')).contentType).toBe('text/plain')
    expect(await here.db.readlink('/public/link')).toBe('/public/a.txt')
    expect(await read('/public/locked/x.txt')).toBeUndefined()
    expect(await read('/private/s.txt')).toBeUndefined()
    expect(await pull({ scope: '/public' })).toEqual({
      kind: 'current',
      version: peer.db.head(),
      skipped: 0,
    })
  })

  it('without a scope copies what the key may read anywhere, and nothing else', async () => {
    await peer.db.writeFile('/public/a.txt', 'alpha')
    await peer.db.writeFile('/private/s.txt', 'secret')
    expect(await pull()).toMatchObject({ kind: 'fast-forward' })
    expect(await read('/public/a.txt')).toBe('alpha')
    await expect(here.db.stat('/private')).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })

  it('fast-forwards the peer’s later changes: edits, deletes and new directories', async () => {
    await peer.db.writeFile('/public/a.txt', 'alpha')
    await peer.db.writeFile('/public/b.txt', 'beta')
    await pull({ scope: '/public' })
    await peer.db.writeFile('/public/a.txt', 'alpha 2')
    await peer.db.delete('/public/b.txt')
    await peer.db.writeFile('/public/c/d/e.txt', 'deep')
    await peer.db.mkdir('/public/empty')
    await peer.db.writeFile('/private/s.txt', 'secret')
    // a.txt, b.txt gone, c, c/d, c/d/e.txt, empty.
    expect(await pull({ scope: '/public' })).toMatchObject({ kind: 'fast-forward', entries: 6 })
    expect(await read('/public/a.txt')).toBe('alpha 2')
    expect(await read('/public/b.txt')).toBeUndefined()
    expect(await read('/public/c/d/e.txt')).toBe('deep')
    expect((await here.db.stat('/public/empty')).entryType).toBe('directory')
    expect(await read('/private/s.txt')).toBeUndefined()
  })

  it('keeps HEAD when both sides changed the scope, and puts the peer’s scope in a fork', async () => {
    await peer.db.writeFile('/public/a.txt', 'alpha')
    await pull({ scope: '/public' })
    await here.db.writeFile('/public/mine.txt', 'mine')
    const head = here.db.head()
    await peer.db.writeFile('/public/theirs.txt', 'theirs')
    const version = peer.db.head()
    const outcome = await pull({ scope: '/public' })
    const fork = `peer-a-${version.slice(0, 12)}`
    expect(outcome).toMatchObject({ kind: 'fork', version, fork })
    expect(here.db.head()).toBe(head)
    expect(await read('/public/theirs.txt')).toBeUndefined()
    expect(await read('/public/theirs.txt', fork)).toBe('theirs')
    expect(await read('/public/mine.txt', fork)).toBeUndefined()
    expect(await read('/public/a.txt', fork)).toBe('alpha')
    expect(await pull({ scope: '/public' })).toMatchObject({ kind: 'current' })
  })

  it('fast-forwards a change outside the scope here: only the scope counts', async () => {
    await peer.db.writeFile('/public/a.txt', 'alpha')
    await pull({ scope: '/public' })
    await here.db.writeFile('/elsewhere.txt', 'local, out of scope')
    await peer.db.writeFile('/public/b.txt', 'beta')
    expect(await pull({ scope: '/public' })).toMatchObject({ kind: 'fast-forward' })
    expect(await read('/public/b.txt')).toBe('beta')
    expect(await here.db.forks.list()).toEqual([])
  })

  it('refuses bytes that are not the file’s (same size, other hash) and keeps none of them', async () => {
    await peer.db.writeFile('/public/a.txt', 'alpha')
    await pull({ scope: '/public' })
    await peer.db.writeFile('/public/a.txt', 'omega')
    const cursor = await loadReadableCursor(here.db, 'a')
    const flipped = tampering('/public/a.txt', (b) => b.map((x, i) => (i === 0 ? x ^ 1 : x)))
    await expect(pull({ scope: '/public', fetch: flipped })).rejects.toMatchObject({
      code: 'INVALID_ARCHIVE',
    })
    expect(await read('/public/a.txt')).toBe('alpha')
    expect((await loadReadableCursor(here.db, 'a'))?.version).toBe(cursor?.version)
    // An honest answer later applies it, into HEAD: the failed attempt was not a local change.
    expect(await pull({ scope: '/public' })).toMatchObject({ kind: 'fast-forward' })
    expect(await read('/public/a.txt')).toBe('omega')
  })

  it('refuses a short body before anything is committed', async () => {
    await peer.db.writeFile('/public/a.txt', 'alpha')
    const before = here.db.head()
    const short = tampering('/public/a.txt', (b) => b.slice(0, 3))
    await expect(pull({ scope: '/public', fetch: short })).rejects.toMatchObject({
      code: 'INVALID_ARCHIVE',
    })
    // Not even the directory made before the file: HEAD moves only when every step passed.
    expect(here.db.head()).toBe(before)
    expect(await here.db.forks.list()).toEqual([])
  })

  it('leaves a root key to the archive path', async () => {
    const http = createPeerHttp({ name: 'a', url: 'http://p', key: peer.rootKey }, viaApp)
    expect(await peerKeyMode(http, 'a', new AbortController().signal)).toBe('archive')
  })
})
