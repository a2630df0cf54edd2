import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fingerprint, pollUntil, startPeerNode } from '../kit/peer-servers'
import type { PeerNode } from '../kit/peer-servers'

/**
 * Issue 21: `--peer NAME=URL#/dir` with a root key copies only `dir` of the peer: the rest of
 * this deployment is its own, nothing outside `dir` is transferred, and a divergent `dir`
 * makes the fork (B's tree with the peer's `dir`).
 */
let a: PeerNode
let b: PeerNode

beforeAll(async () => {
  a = await startPeerNode()
  const link = a.link('a')
  b = await startPeerNode({ peers: [{ ...link, url: `${link.url}#/projects/**` }] })
}, 60_000)
afterAll(async () => {
  await Promise.all([b?.dispose(), a?.dispose()])
})

const text = (s: string) => new TextEncoder().encode(s)

describe('a peer with a path scope', () => {
  it('copies only the scope, leaves the rest of B alone, and follows deletes in it', async () => {
    await b.write('/mine.txt', text('B’s own'))
    await a.write('/outside.txt', text('not replicated'))
    const big = new Uint8Array(3 * 1024 * 1024).map((_, i) => (i * 31) % 251)
    await a.write('/projects/big.bin', big)
    const version = await a.write('/projects/x/readme.md', text('# x'))

    await pollUntil(
      'B to sync A’s version',
      () => b.peer('a'),
      (p) => p.cursor === version && p.state === 'ok',
    )
    expect(fingerprint(await b.read('/projects/big.bin'))).toBe(fingerprint(big))
    expect(await b.read('/projects/x/readme.md')).toEqual(text('# x'))
    expect(await b.read('/outside.txt')).toBeUndefined()
    expect(await b.read('/mine.txt')).toEqual(text('B’s own'))
    expect((await b.peer('a')).scope).toBe('/projects')
    expect(await b.forks()).toEqual([])

    const after = await a
      .remove('/projects/big.bin')
      .then(() => a.write('/projects/y.txt', text('y')))
    await pollUntil(
      'B to sync the delete',
      () => b.peer('a'),
      (p) => p.cursor === after,
    )
    expect(await b.read('/projects/big.bin')).toBeUndefined()
    expect(await b.read('/projects/y.txt')).toEqual(text('y'))
    expect(await b.read('/mine.txt')).toEqual(text('B’s own'))
  })

  it('makes the peer fork when both sides changed the scope, and keeps B’s HEAD', async () => {
    await b.write('/projects/b-only.txt', text('B adds its own'))
    const remote = await a.write('/projects/z.txt', text('A adds z'))
    const forkName = `peer-a-${remote.slice(0, 12)}`
    await pollUntil(
      `fork ${forkName} on B`,
      () => b.forks(),
      (forks) => forks.some((f) => f.name === forkName),
    )
    expect(await b.read('/projects/b-only.txt')).toEqual(text('B adds its own'))
    expect(await b.read('/projects/z.txt')).toBeUndefined()
    expect((await b.peer('a')).forks_created).toBe(1)
    // The fork is B's tree with A's scope: A's z.txt, not B's own file in the scope, B's
    // files outside it, and nothing of A outside the scope (never transferred at all).
    const onFork = (path: string) => b.request('GET', `/files${path}?fork=${forkName}`)
    expect(await (await onFork('/projects/z.txt')).text()).toBe('A adds z')
    expect((await onFork('/projects/b-only.txt')).status).toBe(404)
    expect(await (await onFork('/mine.txt')).text()).toBe('B’s own')
    expect((await onFork('/outside.txt')).status).toBe(404)
    expect(await b.read('/outside.txt')).toBeUndefined()
  })
})
