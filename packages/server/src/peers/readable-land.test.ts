import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { TempDatabase, TestApp } from '../../test/kit'
import { startReadablePeer } from '../../test/kit/readable-peer'
import type { ReadablePeer, ReadablePullOptions } from '../../test/kit/readable-peer'
import type { PullOutcome } from './pull-round'
import { loadReadableCursor, saveReadableCursor } from './readable-cursor'

/**
 * How a readable pull lands: every step on a staging fork, HEAD moved once by a compare-and-swap,
 * so no local write is ever overwritten and no unverified byte is ever in HEAD.
 */

/** The peer: the routes a readable pull uses, in process. Here: the database it fills. */
let fixture: ReadablePeer
let peer: TestApp
let here: TempDatabase
let viaApp: Fetch

beforeEach(async () => {
  fixture = await startReadablePeer()
  ;({ peer, here, viaApp } = fixture)
})
afterEach(() => fixture?.close())

type Fetch = typeof fetch
const pull = (options?: ReadablePullOptions): Promise<PullOutcome> => fixture.pull(options)

/** A fetch whose file downloads fail (no answer) after the first `served`. */
function dying(served: number): Fetch {
  let count = 0
  return async (input, init) => {
    const url = String(input)
    if (url.includes('?version=') && !url.includes('stat=') && ++count > served)
      throw new TypeError('fetch failed')
    return viaApp(input, init)
  }
}

/** A fetch that runs `write` here once, just before the first request whose URL has `part`. */
function writingDuring(part: string, write: () => Promise<unknown>): Fetch {
  let wrote = false
  return async (input, init) => {
    if (String(input).includes(part) && !wrote) {
      wrote = true
      await write()
    }
    return viaApp(input, init)
  }
}

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

describe('pullOnce through a read-only key, landing', () => {
  it('after a failure mid-apply, HEAD and the cursor are as before, and the next pull applies it all', async () => {
    await peer.db.writeFile('/public/a.txt', 'alpha')
    await pull({ scope: '/public' })
    const cursor = await loadReadableCursor(here.db, 'a')
    const head = here.db.head()
    await peer.db.writeFile('/public/b.txt', 'beta')
    await peer.db.writeFile('/public/c.txt', 'gamma')
    await expect(pull({ scope: '/public', fetch: dying(1) })).rejects.toMatchObject({
      code: 'UNREACHABLE',
    })
    expect(here.db.head()).toBe(head)
    expect(await read('/public/b.txt')).toBeUndefined()
    expect(await loadReadableCursor(here.db, 'a')).toEqual(cursor)
    expect(await pull({ scope: '/public' })).toMatchObject({ kind: 'fast-forward', entries: 2 })
    expect(await read('/public/b.txt')).toBe('beta')
    expect(await read('/public/c.txt')).toBe('gamma')
    expect(await here.db.forks.list()).toEqual([])
  })

  it('after a failure mid-apply, keeps local edits made later and puts the peer’s scope in a fork (A)', async () => {
    await peer.db.writeFile('/public/a.txt', 'alpha')
    await pull({ scope: '/public' })
    await peer.db.writeFile('/public/b.txt', 'beta')
    await peer.db.writeFile('/public/c.txt', 'gamma')
    await expect(pull({ scope: '/public', fetch: dying(1) })).rejects.toMatchObject({
      code: 'UNREACHABLE',
    })
    // The partition lasts; users here keep working in /public.
    await here.db.writeFile('/public/a.txt', 'LOCAL EDIT')
    await here.db.writeFile('/public/mine.txt', 'LOCAL ONLY')
    const head = here.db.head()
    const outcome = await pull({ scope: '/public' })
    expect(outcome).toMatchObject({ kind: 'fork' })
    expect(here.db.head()).toBe(head)
    expect(await read('/public/a.txt')).toBe('LOCAL EDIT')
    expect(await read('/public/mine.txt')).toBe('LOCAL ONLY')
    const fork = (outcome as { fork: string }).fork
    expect(await read('/public/c.txt', fork)).toBe('gamma')
    expect(await read('/public/a.txt', fork)).toBe('alpha')
  })

  it('keeps a local write to the scope made during the apply, and lands the peer’s in a fork', async () => {
    await peer.db.writeFile('/public/a.txt', 'alpha')
    await peer.db.writeFile('/public/b.txt', 'beta')
    const racing = writingDuring('/files/public/b.txt?version=', () =>
      here.db.writeFile('/public/local.txt', 'written here meanwhile'),
    )
    const outcome = await pull({ scope: '/public', fetch: racing })
    expect(outcome).toMatchObject({ kind: 'fork' })
    const fork = (outcome as { fork: string }).fork
    expect(await read('/public/local.txt')).toBe('written here meanwhile')
    expect(await read('/public/b.txt')).toBeUndefined()
    expect(await read('/public/b.txt', fork)).toBe('beta')
    expect(await read('/public/local.txt', fork)).toBeUndefined()
    // HEAD's scope holds a write the peer never had: the next change goes to a fork too,
    // which replaces the untouched one before it.
    await peer.db.writeFile('/public/c.txt', 'gamma')
    const next = await pull({ scope: '/public' })
    expect(next).toMatchObject({ kind: 'fork' })
    expect((await here.db.forks.list()).map((f) => f.name)).toEqual([
      (next as { fork: string }).fork,
    ])
    expect(await read('/public/local.txt')).toBe('written here meanwhile')
  })

  it('keeps a local write to the very file being applied (B)', async () => {
    await peer.db.writeFile('/public/a.txt', 'alpha')
    await pull({ scope: '/public' })
    await peer.db.writeFile('/public/a.txt', 'alpha 2')
    const racing = writingDuring('/files/public/a.txt?version=', () =>
      here.db.writeFile('/public/a.txt', 'LOCAL EDIT meanwhile'),
    )
    const outcome = await pull({ scope: '/public', fetch: racing })
    expect(outcome).toMatchObject({ kind: 'fork' })
    expect(await read('/public/a.txt')).toBe('LOCAL EDIT meanwhile')
    expect(await read('/public/a.txt', (outcome as { fork: string }).fork)).toBe('alpha 2')
  })

  it('keeps a local file made, while the pull plans, in a directory the peer deleted (C)', async () => {
    await peer.db.writeFile('/public/dir/x.txt', 'x')
    await pull({ scope: '/public' })
    await peer.db.delete('/public/dir', { recursive: true })
    await peer.db.writeFile('/public/y.txt', 'y')
    const racing = writingDuring('/versions/changes', () =>
      here.db.writeFile('/public/dir/new-local.txt', 'LOCAL'),
    )
    const outcome = await pull({ scope: '/public', fetch: racing })
    expect(outcome).toMatchObject({ kind: 'fork' })
    expect(await read('/public/dir/new-local.txt')).toBe('LOCAL')
    const fork = (outcome as { fork: string }).fork
    expect(await read('/public/y.txt', fork)).toBe('y')
    expect(await read('/public/dir/x.txt', fork)).toBeUndefined()
  })

  it('never commits bytes that fail verification to HEAD, not even for a moment (D)', async () => {
    await peer.db.writeFile('/public/a.txt', 'alpha')
    await pull({ scope: '/public' })
    await peer.db.writeFile('/public/a.txt', 'omega')
    const head = here.db.head()
    const onHead: string[] = []
    const off = here.db.onChange((change) => {
      if (change.fork === undefined) onHead.push(change.type)
    })
    const flipped = tampering('/public/a.txt', (b) => b.map((x, i) => (i === 0 ? x ^ 1 : x)))
    await expect(pull({ scope: '/public', fetch: flipped })).rejects.toMatchObject({
      code: 'INVALID_ARCHIVE',
    })
    off()
    expect(onHead).toEqual([])
    expect(here.db.head()).toBe(head)
    expect(await here.db.forks.list()).toEqual([])
  })

  it('fast-forwards when HEAD moved outside the scope during the apply, keeping that write', async () => {
    await peer.db.writeFile('/public/a.txt', 'alpha')
    await pull({ scope: '/public' })
    await peer.db.writeFile('/public/b.txt', 'beta')
    const racing = writingDuring('/files/public/b.txt?version=', () =>
      here.db.writeFile('/elsewhere.txt', 'out of scope, meanwhile'),
    )
    expect(await pull({ scope: '/public', fetch: racing })).toMatchObject({ kind: 'fast-forward' })
    expect(await read('/elsewhere.txt')).toBe('out of scope, meanwhile')
    expect(await read('/public/b.txt')).toBe('beta')
    expect(await here.db.forks.list()).toEqual([])
    await peer.db.writeFile('/public/c.txt', 'gamma')
    expect(await pull({ scope: '/public' })).toMatchObject({ kind: 'fast-forward' })
  })

  it('drops a staging fork a crash left, never promoting it', async () => {
    await peer.db.writeFile('/public/a.txt', 'alpha')
    await here.db.forks.create('peer-a.staging')
    await here.db.fork('peer-a.staging').writeFile('/public/half.txt', 'half an apply')
    expect(await pull({ scope: '/public' })).toMatchObject({ kind: 'fast-forward' })
    expect(await read('/public/half.txt')).toBeUndefined()
    expect(await here.db.forks.list()).toEqual([])
  })

  it('keeps a peer fork someone worked on when the next divergent pull makes another', async () => {
    await peer.db.writeFile('/public/a.txt', 'alpha')
    await pull({ scope: '/public' })
    await here.db.writeFile('/public/mine.txt', 'mine')
    await peer.db.writeFile('/public/b.txt', 'beta')
    const first = (await pull({ scope: '/public' })) as { fork: string }
    await here.db.fork(first.fork).writeFile('/public/merged.txt', 'work on the fork')
    await peer.db.writeFile('/public/c.txt', 'gamma')
    const second = (await pull({ scope: '/public' })) as { fork: string }
    expect((await here.db.forks.list()).map((f) => f.name).sort()).toEqual(
      [first.fork, second.fork].sort(),
    )
  })

  it('tells the replicator the peer is ahead before it transfers anything', async () => {
    await peer.db.writeFile('/public/a.txt', 'alpha')
    const heard: [string | undefined, string][] = []
    const first = peer.db.head()
    await pull({ scope: '/public', onBehind: (c, t) => heard.push([c, t]) })
    await peer.db.writeFile('/public/b.txt', 'beta')
    await pull({ scope: '/public', onBehind: (c, t) => heard.push([c, t]) })
    await pull({ scope: '/public', onBehind: (c, t) => heard.push([c, t]) })
    expect(heard).toEqual([
      [undefined, first],
      [first, peer.db.head()],
    ])
  })

  it('after a crash between moving HEAD and saving the cursor, takes the landing for done', async () => {
    await peer.db.writeFile('/public/a.txt', 'alpha')
    await pull({ scope: '/public' })
    const before = await loadReadableCursor(here.db, 'a')
    await peer.db.writeFile('/public/b.txt', 'beta')
    await pull({ scope: '/public' })
    const landed = await loadReadableCursor(here.db, 'a')
    // As a kill -9 right after the promote leaves it: the landing saved, the cursor not moved.
    await saveReadableCursor(here.db, 'a', {
      version: before?.version ?? null,
      scopeHash: before?.scopeHash ?? null,
      landing: { version: landed?.version ?? '', scopeHash: landed?.scopeHash ?? null },
    })
    await peer.db.writeFile('/public/c.txt', 'gamma')
    expect(await pull({ scope: '/public' })).toMatchObject({ kind: 'fast-forward', entries: 1 })
    expect(await here.db.forks.list()).toEqual([])
  })
})
