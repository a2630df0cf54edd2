import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fingerprint, pollUntil, startPeerNode } from '../kit/peer-servers'
import type { PeerNode } from '../kit/peer-servers'

/**
 * Issue 21, "the credential's permissions bound what is replicated": a peer key that is not
 * root (a user's key that may read only /public) replicates exactly what it may read, under
 * the peer's scope or, without one, wherever it may read; /private never leaves A.
 */
let a: PeerNode
let b: PeerNode
let c: PeerNode
let readerKey: string

const text = (s: string) => new TextEncoder().encode(s)
const big = randomBytes(300 * 1024)

async function expectOk(res: Response, what: string): Promise<Response> {
  if (res.status >= 300) throw new Error(`${what}: ${res.status} ${await res.text()}`)
  return res
}

/** A user of `node` whose group may use /public only, and an API key of theirs. */
async function publicReaderKey(node: PeerNode): Promise<string> {
  const user = await expectOk(
    await node.request('POST', '/system/users', { username: 'reader', tags: ['readers'] }),
    'create user',
  )
  const { user_id } = (await user.json()) as { user_id: string }
  await expectOk(
    await node.request('POST', '/system/groups', {
      name: 'readers',
      default_allow: '/public/**',
      default_deny: '/private/**',
      query_field: 'tags',
      query_operator: 'has',
      query_value: 'readers',
    }),
    'create group',
  )
  const issued = await expectOk(
    await node.request('POST', '/auth/keys/admin', { user_id }),
    'issue key',
  )
  return ((await issued.json()) as { api_key: string }).api_key
}

/** Writes (or overwrites) `path` on `node` as root, returning the new version. */
async function put(node: PeerNode, path: string, bytes: Uint8Array): Promise<string> {
  const res = await expectOk(await node.request('PUT', `/files${path}`, bytes), `PUT ${path}`)
  return ((await res.json()) as { version: string }).version
}

/** Reads `path` of `node` as root: status, and the entry of a stat. */
async function stat(node: PeerNode, path: string, query = '') {
  const res = await node.request('GET', `/files${path}?stat=true&nofollow=true${query}`)
  return res.status === 200
    ? ((await res.json()) as { entry_type: string; target?: string; content_type: string | null })
    : undefined
}

beforeAll(async () => {
  a = await startPeerNode()
  await a.write('/public/a.txt', text('alpha'))
  await a.write('/public/sub/big.bin', big)
  await a.write('/private/secret.txt', text('secret'))
  await expectOk(
    await fetch(`${a.url}/files/public/page.html`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${a.key}`, 'content-type': 'text/html' },
      body: '<h1>hi</h1>',
    }),
    'put page',
  )
  await expectOk(await a.request('PUT', '/links/public/link', { target: '/public/a.txt' }), 'link')
  await expectOk(await a.request('POST', '/files/mkdir', { path: '/public/empty' }), 'mkdir')
  readerKey = await publicReaderKey(a)
  // Not root: the archive routes are closed to it, so the pull must go file by file.
  const whoami = await fetch(`${a.url}/auth/whoami`, {
    headers: { authorization: `Bearer ${readerKey}` },
  })
  expect(((await whoami.json()) as { is_root: boolean }).is_root).toBe(false)

  b = await startPeerNode({ peers: [{ name: 'a', url: `${a.url}#/public`, key: readerKey }] })
  c = await startPeerNode({ peers: [{ name: 'a', url: a.url, key: readerKey }] })
}, 90_000)
afterAll(async () => {
  await Promise.all([b?.dispose(), c?.dispose(), a?.dispose()])
})

describe('replication through a key that may only read /public', () => {
  it('copies /public byte-identical (files, content types, symlinks, empty directories), never /private', async () => {
    await pollUntil(
      'B to have /public/sub/big.bin',
      () => b.read('/public/sub/big.bin'),
      (bytes) => fingerprint(bytes) === fingerprint(big),
    )
    await pollUntil(
      'B to have the empty directory',
      () => stat(b, '/public/empty'),
      (e) => e !== undefined,
    )
    expect(fingerprint(await b.read('/public/a.txt'))).toBe(fingerprint(text('alpha')))
    expect(await b.read('/private/secret.txt')).toBeUndefined()
    expect(await stat(b, '/private')).toBeUndefined()
    expect(await stat(b, '/public/link')).toMatchObject({
      entry_type: 'symlink',
      target: '/public/a.txt',
    })
    expect(await stat(b, '/public/page.html')).toMatchObject({ content_type: 'text/html' })
    expect(await stat(b, '/public/empty')).toMatchObject({ entry_type: 'directory' })

    const peer = await pollUntil(
      'B’s peer a ok',
      () => b.peer('a'),
      (p) => p.state === 'ok',
    )
    expect(peer).toMatchObject({ state: 'ok', last_error: null, scope: '/public' })
    expect((await b.sync())?.failing_peers).toBe(0)
  }, 60_000)

  it('without a scope, replicates only what the key may read (/public)', async () => {
    await pollUntil(
      'C to have /public/sub/big.bin',
      () => c.read('/public/sub/big.bin'),
      (bytes) => fingerprint(bytes) === fingerprint(big),
    )
    expect(fingerprint(await c.read('/public/a.txt'))).toBe(fingerprint(text('alpha')))
    expect(await c.read('/private/secret.txt')).toBeUndefined()
    expect(await stat(c, '/private')).toBeUndefined()
    expect(
      await pollUntil(
        'C’s peer a ok',
        () => c.peer('a'),
        (p) => p.state === 'ok',
      ),
    ).toMatchObject({ last_error: null, scope: null })
  }, 60_000)

  it('propagates a change and a delete under /public, and nothing of a change to /private', async () => {
    await put(a, '/public/a.txt', text('alpha, again'))
    await expectOk(await a.request('DELETE', '/files/public/sub?recursive=true'), 'delete')
    await a.write('/private/more.txt', text('more secret'))
    await a.write('/public/new.txt', text('new'))
    for (const node of [b, c]) {
      await pollUntil(
        'the delete and the new file to arrive',
        async () => [await node.read('/public/sub/big.bin'), await node.read('/public/new.txt')],
        ([gone, added]) => gone === undefined && fingerprint(added) === fingerprint(text('new')),
      )
      expect(fingerprint(await node.read('/public/a.txt'))).toBe(fingerprint(text('alpha, again')))
      expect(await stat(node, '/public/sub')).toBeUndefined()
      expect(await node.read('/private/more.txt')).toBeUndefined()
    }
  }, 60_000)

  it('keeps B’s HEAD on divergent edits under /public and puts A’s state in a fork', async () => {
    const local = await b.write('/public/local.txt', text('local'))
    const remote = await a.write('/public/remote.txt', text('remote'))
    const forkName = `peer-a-${remote.slice(0, 12)}`
    // Exactly that fork once the pull ended (its staging fork is gone by then).
    const forks = await pollUntil(
      `fork ${forkName} alone on B`,
      () => b.forks(),
      (list) => list.length === 1 && list[0]?.name === forkName,
    ).catch(async (err: Error) => {
      throw new Error(
        `${err.message}; B's peer a: ${JSON.stringify(await b.peer('a'))} ${b.server.stdout().slice(-3000)} ${b.server.stderr().slice(-3000)}`,
      )
    })
    expect(forks.map((f) => f.name)).toEqual([forkName])
    // HEAD is B's own: its write is there, A's is not, and HEAD did not move since.
    expect(await b.headPrefix()).toBe(local.slice(0, 12))
    expect(fingerprint(await b.read('/public/local.txt'))).toBe(fingerprint(text('local')))
    expect(await b.read('/public/remote.txt')).toBeUndefined()
    // The fork holds /public as A has it: A's file, not B's.
    const onFork = await b.request('GET', `/files/public/remote.txt?fork=${forkName}`)
    expect(await onFork.text()).toBe('remote')
    expect((await b.request('GET', `/files/public/local.txt?fork=${forkName}`)).status).toBe(404)
    expect(await b.peer('a')).toMatchObject({ state: 'ok', forks_created: 1, last_error: null })

    // A's next change replaces that fork, nobody having touched it: forks do not pile up.
    const again = await a.write('/public/remote-2.txt', text('remote 2'))
    const next = `peer-a-${again.slice(0, 12)}`
    await pollUntil(
      `fork ${next} alone on B`,
      () => b.forks(),
      (list) => list.length === 1 && list[0]?.name === next,
    )
    expect(await b.headPrefix()).toBe(local.slice(0, 12))
    const onNext = await b.request('GET', `/files/public/remote-2.txt?fork=${next}`)
    expect(await onNext.text()).toBe('remote 2')
  }, 60_000)
})
