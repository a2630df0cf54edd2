import { afterEach, describe, expect, it } from 'vitest'
import { createStubServers } from '../../test/kit/stub-servers'
import { waitUntil } from '../../test/kit'
import { createPeerHttp } from './peer-http'
import { followPeerEvents } from './peer-events'
import type { PeerEvent } from './peer-events'

const stop = new AbortController()
const stubs = createStubServers()
afterEach(() => stubs.closeAll())

/** A `node:http` peer on loopback answering with `handler`; resolves with its URL. */
const peerAnswering = stubs.answering

const envelope = (id: string, type: string) =>
  `id: ${id}\ndata: ${JSON.stringify({ event_id: id, event_type: type, payload: {} })}\n\n`

describe('followPeerEvents', () => {
  it('drops a stream whose event grows past the cap, then resumes from the last id', async () => {
    const lastIds: (string | undefined)[] = []
    const url = await peerAnswering((req, res) => {
      lastIds.push(req.headers['last-event-id'] as string | undefined)
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      if (lastIds.length > 1) {
        res.write(envelope('e2', 'entries_created'))
        return
      }
      res.write(envelope('e1', 'entries_created'))
      // Then one line that never ends: 64 KiB at a time, 4 MiB in all, and the stream held open.
      const line = 'x'.repeat(64 * 1024)
      res.write('data: ')
      for (let i = 0; i < 64; i++) res.write(line)
    })
    const events: PeerEvent[] = []
    const drops: unknown[] = []
    const opens: boolean[] = []
    const following = followPeerEvents(createPeerHttp({ name: 'a', url }), {
      signal: stop.signal,
      minBackoffMs: 10,
      maxBackoffMs: 20,
      onOpen: (resumed) => opens.push(resumed),
      onEvent: (event) => events.push(event),
      onDrop: (err) => drops.push(err),
    })
    await waitUntil('the event after the reconnect', () => events.length >= 2, 10_000)
    stop.abort()
    await following
    expect(events.map((e) => e.id)).toEqual(['e1', 'e2'])
    expect(String(drops[0])).toContain('longer than 1048576 bytes')
    expect(lastIds).toEqual([undefined, 'e1'])
    expect(opens).toEqual([false, true])
  })
})
