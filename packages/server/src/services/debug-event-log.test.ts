import { createEventBus } from '@svcdb/events'
import { describe, expect, it } from 'vitest'
import { createLogger } from '../logger'
import { startDebugEventLog } from './debug-event-log'

function capture(level: 'debug' | 'info') {
  const lines: Record<string, unknown>[] = []
  const logger = createLogger({
    level,
    write: (line) => lines.push(JSON.parse(line) as Record<string, unknown>),
  })
  return { logger, lines }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 20))

describe('startDebugEventLog', () => {
  it('logs each event with its id, type and first paths at debug', async () => {
    const bus = createEventBus()
    const { logger, lines } = capture('debug')
    const stop = startDebugEventLog(bus, logger)
    const paths = Array.from({ length: 7 }, (_, i) => ({ path: `/docs/${i}.txt` }))
    const sent = bus.publish('entries_created', { entries: paths })
    await settle()
    stop()
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatchObject({
      level: 'debug',
      msg: 'event entries_created',
      eventId: sent.event_id,
      entries: 7,
      paths: ['/docs/0.txt', '/docs/1.txt', '/docs/2.txt', '/docs/3.txt', '/docs/4.txt'],
    })
    bus.close()
  })

  it('costs nothing above debug: no subscription at all', () => {
    const bus = createEventBus()
    const { logger } = capture('info')
    const stop = startDebugEventLog(bus, logger)
    expect(bus.subscriberCount).toBe(0)
    stop()
    bus.close()
  })
})
