import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fingerprint, followEvents, pollUntil, startPeerNode } from '../kit/peer-servers'
import type { EventFollower, PeerNode } from '../kit/peer-servers'

/**
 * Issue 21: when both sides changed since the last sync, B keeps its HEAD and records A's
 * version as a fork `peer-a-<12 hex>`; nothing is overwritten on either side.
 */
let a: PeerNode
let b: PeerNode
let events: EventFollower | undefined

beforeAll(async () => {
  a = await startPeerNode()
  b = await startPeerNode({ peers: [a.link('a')] })
}, 60_000)
afterAll(async () => {
  events?.close()
  await Promise.all([b?.dispose(), a?.dispose()])
})

const text = (s: string) => new TextEncoder().encode(s)

describe('divergent writes on two peers', () => {
  it('keeps B’s HEAD, creates the peer fork on B with A’s version, and leaves A alone', async () => {
    // A shared start: B has A's version and its cursor.
    const base = await a.write('/base.txt', text('base'))
    await pollUntil(
      'B to sync A’s first version',
      () => b.peer('a'),
      (p) => p.cursor === base && p.state === 'ok',
    )
    events = await followEvents(b, ['versions_created'])

    // B changes first, then A: when B next pulls, both moved since the cursor.
    const local = await b.write('/local.txt', text('local'))
    const remote = await a.write('/remote.txt', text('remote'))
    const forkName = `peer-a-${remote.slice(0, 12)}`

    const forks = await pollUntil(
      `fork ${forkName} on B`,
      () => b.forks(),
      (list) => list.some((f) => f.name === forkName),
    )
    expect(forks.map((f) => f.name)).toEqual([forkName])
    expect(forks[0]?.version).toBe(remote)
    expect(forks[0]?.name).toMatch(/^peer-a-[0-9a-f]{12}$/)

    // B's HEAD is untouched: its own write, without A's.
    expect(await b.headPrefix()).toBe(local.slice(0, 12))
    expect(fingerprint(await b.read('/local.txt'))).toBe(fingerprint(text('local')))
    expect(await b.read('/remote.txt')).toBeUndefined()
    // The fork holds A's version: A's file and not B's.
    const onFork = await b.request('GET', `/files/remote.txt?fork=${forkName}`)
    expect(onFork.status).toBe(200)
    expect(await onFork.text()).toBe('remote')
    expect((await b.request('GET', `/files/local.txt?fork=${forkName}`)).status).toBe(404)

    // Published like any fork.
    await pollUntil(
      'versions_created for the peer fork on B’s stream',
      async () => events?.events ?? [],
      (list) => list.some((e) => e.payload.name === forkName),
    )
    const created = events.events.find((e) => e.payload.name === forkName)
    expect(created).toMatchObject({
      event_type: 'versions_created',
      payload: { kind: 'fork', name: forkName, version: remote },
    })

    // The cursor is A's version now, and the status counts the fork.
    const peer = await pollUntil(
      'B’s cursor at A’s version',
      () => b.peer('a'),
      (p) => p.cursor === remote,
    )
    expect(peer).toMatchObject({ state: 'ok', lag_entries: 0, forks_created: 1 })

    // Nothing changed on A: no peer of its own, its HEAD is its last write.
    expect(await a.headPrefix()).toBe(remote.slice(0, 12))
    expect(await a.read('/local.txt')).toBeUndefined()
    expect(await a.forks()).toEqual([])
  }, 60_000)

  it('keeps one fork per divergence: a newer peer version replaces an untouched peer fork', async () => {
    const [first] = await b.forks()
    const next = await a.write('/remote-2.txt', text('more'))
    const nextName = `peer-a-${next.slice(0, 12)}`
    await pollUntil(
      `fork ${nextName} alone on B`,
      () => b.forks(),
      (list) => list.length === 1 && list[0]?.name === nextName && list[0]?.version === next,
    )
    expect(first?.name).not.toBe(nextName)

    // Someone works on the peer fork: it is theirs now, and the next version gets its own.
    const touched = await b.request('PUT', `/files/note.txt?fork=${nextName}`, text('mine'))
    expect(touched.status).toBe(201)
    const last = await a.write('/remote-3.txt', text('even more'))
    const lastName = `peer-a-${last.slice(0, 12)}`
    const forks = await pollUntil(
      `fork ${lastName} beside the touched one`,
      () => b.forks(),
      (list) => list.some((f) => f.name === lastName),
    )
    expect(forks.map((f) => f.name).sort()).toEqual([lastName, nextName].sort())
    expect(await b.read('/remote-3.txt')).toBeUndefined()
  }, 60_000)
})
