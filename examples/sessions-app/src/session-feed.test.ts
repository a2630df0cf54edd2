import { describe, expect, it } from 'vitest'
import { createSessionFeed } from './session-feed'

const ids = (messages: readonly { data: { sessionID: string } }[]) =>
  messages.map((m) => m.data.sessionID)

describe('createSessionFeed', () => {
  it('delivers published events to every subscriber with ids <boot>-<seq>', async () => {
    const feed = createSessionFeed()
    const a = feed.subscribe()
    const b = feed.subscribe()
    const id = feed.publish({ kind: 'created', sessionID: 's-1' })
    expect(id).toMatch(/^[0-9a-f]{8}-1$/)
    for (const source of [a, b]) {
      const [message] = await source.take()
      expect(message?.data).toEqual({ kind: 'created', sessionID: 's-1' })
      expect(feed.encode(message as NonNullable<typeof message>)).toEqual({
        id,
        data: '{"kind":"created","sessionID":"s-1"}',
      })
    }
  })

  it('replays what came after Last-Event-ID, then goes on live', async () => {
    const feed = createSessionFeed()
    const first = feed.publish({ kind: 'created', sessionID: 's-1' })
    feed.publish({ kind: 'dispatched', sessionID: 's-1' })
    feed.publish({ kind: 'created', sessionID: 's-2' })
    const source = feed.subscribe(first)
    expect(ids(await source.take(1))).toEqual(['s-1'])
    expect(ids(await source.take())).toEqual(['s-2'])
    feed.publish({ kind: 'created', sessionID: 's-3' })
    expect(ids(await source.take())).toEqual(['s-3'])
  })

  it('replays nothing for an id of another process', async () => {
    const feed = createSessionFeed()
    feed.publish({ kind: 'created', sessionID: 's-1' })
    const source = feed.subscribe('00000000-1')
    feed.publish({ kind: 'created', sessionID: 's-2' })
    expect(ids(await source.take())).toEqual(['s-2'])
  })

  it('keeps only the newest replaySize events', async () => {
    const feed = createSessionFeed({ replaySize: 2 })
    const first = feed.publish({ kind: 'created', sessionID: 's-1' })
    for (const id of ['s-2', 's-3', 's-4']) feed.publish({ kind: 'created', sessionID: id })
    expect(ids(await feed.subscribe(first).take())).toEqual(['s-3', 's-4'])
  })

  it('refuses an event that is not a session envelope', () => {
    const feed = createSessionFeed()
    expect(() => feed.publish({ kind: 'deleted', sessionID: 's-1' } as never)).toThrow()
  })

  it('ends its subscriptions when closed', async () => {
    const feed = createSessionFeed()
    const source = feed.subscribe()
    expect(feed.subscriberCount).toBe(1)
    feed.close()
    expect(await source.take()).toEqual([])
  })
})
