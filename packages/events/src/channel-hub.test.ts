import { describe, expect, it } from 'vitest'
import { createChannelHub } from './channel-hub'
import { isEventsError } from './errors'
import { createSseDecoder } from './sse/sse-decoder'
import { createSseStream } from './sse-stream'
import { createFakeClock } from './testing/fake-clock'

describe('createChannelHub', () => {
  it('delivers a message only to subscribers of its channel', async () => {
    const hub = createChannelHub<{ text: string }>({ clock: createFakeClock(42) })
    const lobbyA = hub.subscribe('lobby')
    const lobbyB = hub.subscribe('lobby')
    const other = hub.subscribe('other')
    const { message, delivered } = hub.publish('lobby', { text: 'hi' })
    expect(delivered).toBe(2)
    expect(message).toEqual({ id: '1', channel: 'lobby', data: { text: 'hi' }, timestamp: 42 })
    expect(await lobbyA.take()).toEqual([message])
    expect(await lobbyB.take()).toEqual([message])
    expect(other.pending).toBe(0)
    expect(hub.publish('nobody', { text: 'lost' }).delivered).toBe(0)
    expect(hub.publish('other', { text: 'x' }).message.id).toBe('3')
  })

  it('forgets a channel when its last subscriber leaves', () => {
    const hub = createChannelHub()
    const a = hub.subscribe('a')
    const b = hub.subscribe('a')
    hub.subscribe('b')
    expect(hub.channels().sort()).toEqual(['a', 'b'])
    expect(hub.subscriberCount()).toBe(3)
    a.close()
    a.close()
    expect(hub.subscriberCount('a')).toBe(1)
    b.close()
    expect(hub.channels()).toEqual(['b'])
    expect(hub.subscriberCount()).toBe(1)
  })

  it('bounds each subscriber queue and iterates with for await', async () => {
    const hub = createChannelHub<number>({ queueSize: 3 })
    const slow = hub.subscribe('n')
    for (let i = 1; i <= 10; i++) hub.publish('n', i)
    expect(slow.dropped).toBe(7)
    const seen: number[] = []
    for await (const message of slow) {
      seen.push(message.data)
      if (seen.length === 3) break
    }
    expect(seen).toEqual([8, 9, 10])
    expect(hub.subscriberCount('n')).toBe(0)
  })

  it('refuses bad channel names with INVALID_CHANNEL', () => {
    const hub = createChannelHub()
    for (const name of ['', 'a\nb', 'x'.repeat(257)]) {
      expect(() => hub.subscribe(name)).toThrow(/channel name/)
      try {
        hub.publish(name, 1)
      } catch (err) {
        expect(isEventsError(err, 'INVALID_CHANNEL')).toBe(true)
      }
    }
    expect(() => hub.subscribe('x'.repeat(256))).not.toThrow()
    expect(() => createChannelHub({ queueSize: 0 })).toThrow(RangeError)
  })

  it('ends subscriptions on close and then refuses work', async () => {
    const hub = createChannelHub()
    const sub = hub.subscribe('a')
    const waiting = sub.take()
    hub.close()
    expect(await waiting).toEqual([])
    expect(() => hub.publish('a', 1)).toThrow(/closed/)
    expect(() => hub.subscribe('a')).toThrow(/closed/)
  })

  it('feeds an SSE stream, as the example application does', async () => {
    const clock = createFakeClock()
    const hub = createChannelHub<{ kind: string; sessionID: string }>({ clock })
    const stream = createSseStream({
      source: hub.subscribe('sessions'),
      encode: (m) => ({ id: m.id, data: JSON.stringify(m.data) }),
      clock,
    })
    hub.publish('sessions', { kind: 'created', sessionID: 's1' })
    const { value } = await stream.getReader().read()
    expect(createSseDecoder().push(value as Uint8Array)).toEqual([
      { event: 'message', id: '1', data: '{"kind":"created","sessionID":"s1"}' },
    ])
  })
})
