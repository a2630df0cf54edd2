import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createEventFilter } from './event-filter'
import type { EventEnvelope } from './event-types'
import type { MetricsPayload } from './metrics-payload'

let seq = 0
const envelope = <T extends EventEnvelope>(event: Omit<T, 'event_id' | 'timestamp'>): T =>
  ({ event_id: `boot-${++seq}`, timestamp: 1000, ...event }) as T

const created = (...paths: string[]) =>
  envelope<EventEnvelope<'entries_created'>>({
    event_type: 'entries_created',
    payload: { entries: paths.map((path) => ({ path, entry_type: 'file' as const })) },
  })
const deleted = (...paths: string[]) =>
  envelope<EventEnvelope<'entries_deleted'>>({
    event_type: 'entries_deleted',
    payload: { entries: paths.map((path) => ({ path })) },
  })
const indexes = (path: string) =>
  envelope<EventEnvelope<'indexes_changed'>>({ event_type: 'indexes_changed', payload: { path } })
const permissions = (path: string) =>
  envelope<EventEnvelope<'permissions_changed'>>({
    event_type: 'permissions_changed',
    payload: { path },
  })
const heartbeat = envelope<EventEnvelope<'heartbeat'>>({
  event_type: 'heartbeat',
  payload: { intent_time: 1, construct_time: 2, node_id: 0 },
})
const snapshot = envelope<EventEnvelope<'versions_created'>>({
  event_type: 'versions_created',
  payload: { kind: 'snapshot', name: 'v1', version: 'ab'.repeat(32), created_at: 5 },
})
const metrics = envelope<EventEnvelope<'metrics'>>({
  event_type: 'metrics',
  payload: {} as MetricsPayload,
})

describe('createEventFilter', () => {
  it('keeps everything without options', () => {
    const filter = createEventFilter()
    for (const e of [created('/a'), deleted('/b'), indexes('/c'), heartbeat, snapshot, metrics])
      expect(filter(e)).toBe(e)
  })

  it('filters by event type', () => {
    const filter = createEventFilter({ events: ['entries_deleted', 'heartbeat'] })
    expect(filter(created('/a'))).toBeUndefined()
    expect(filter(deleted('/a'))).toBeDefined()
    expect(filter(heartbeat)).toBe(heartbeat)
    expect(filter(metrics)).toBeUndefined()
    expect(createEventFilter({ events: [] })(heartbeat)).toBeUndefined()
  })

  it('keeps a batch event when any entry path starts with the prefix, untrimmed', () => {
    const filter = createEventFilter({ pathPrefix: '/docs/' })
    const mixed = created('/other/x', '/docs/a.txt')
    expect(filter(mixed)).toBe(mixed)
    expect(filter(created('/other/x', '/doc/a.txt'))).toBeUndefined()
    expect(filter(deleted('/docs/deep/b'))).toBeDefined()
  })

  it('tests payload.path of single-path events against the prefix', () => {
    const filter = createEventFilter({ pathPrefix: '/docs' })
    expect(filter(indexes('/docs/.svcdb/indexes.json'))).toBeDefined()
    expect(filter(permissions('/docsets/x'))).toBeDefined() // a plain string prefix, per spec
    expect(filter(permissions('/doc'))).toBeUndefined()
  })

  it('drops events without paths when a prefix is given', () => {
    const filter = createEventFilter({ pathPrefix: '/' })
    expect(filter(heartbeat)).toBeUndefined()
    expect(filter(metrics)).toBeUndefined()
    expect(filter(snapshot)).toBeUndefined()
    expect(filter(created('/a'))).toBeDefined()
  })

  it('treats an empty prefix as no prefix', () => {
    expect(createEventFilter({ pathPrefix: '' })(heartbeat)).toBe(heartbeat)
  })

  it('cuts batch events down to readable entries, keeping the envelope id', () => {
    const filter = createEventFilter({ canRead: (path) => path.startsWith('/mine/') })
    const batch = created('/mine/a', '/theirs/b', '/mine/c')
    const seen = filter(batch) as EventEnvelope<'entries_created'>
    expect(seen.event_id).toBe(batch.event_id)
    expect(seen.payload.entries.map((e) => e.path)).toEqual(['/mine/a', '/mine/c'])
    expect(batch.payload.entries).toHaveLength(3) // the shared original is untouched
    expect(filter(created('/theirs/x'))).toBeUndefined()
    expect(filter(created('/mine/x'))).toBeDefined()
  })

  it('drops unreadable single-path events and lets pathless events through', () => {
    const filter = createEventFilter({ canRead: (path) => path === '/ok' })
    expect(filter(permissions('/ok'))).toBeDefined()
    expect(filter(permissions('/secret'))).toBeUndefined()
    expect(filter(indexes('/secret'))).toBeUndefined()
    expect(filter(heartbeat)).toBe(heartbeat)
  })

  it('applies the prefix to readable entries only, so nothing unreadable decides', () => {
    const filter = createEventFilter({
      pathPrefix: '/secret/',
      canRead: (path) => !path.startsWith('/secret/'),
    })
    expect(filter(created('/secret/a', '/public/b'))).toBeUndefined()
  })

  it('denies when the predicate throws', () => {
    const filter = createEventFilter({
      canRead: () => {
        throw new Error('lookup failed')
      },
    })
    expect(filter(created('/a'))).toBeUndefined()
    expect(filter(indexes('/a'))).toBeUndefined()
  })

  it('drops snapshot, fork and metrics events for a subscriber kept from the inventory', () => {
    let sees = false
    const filter = createEventFilter({ canRead: () => true, canSeeInventory: () => sees })
    expect(filter(snapshot)).toBeUndefined()
    expect(filter(metrics)).toBeUndefined()
    expect(filter(created('/a'))).toBeDefined()
    expect(filter(heartbeat)).toBe(heartbeat)
    sees = true
    expect(filter(snapshot)).toBe(snapshot)
    expect(filter(metrics)).toBe(metrics)
    const throwing = createEventFilter({
      canSeeInventory: () => {
        throw new Error('lookup failed')
      },
    })
    expect(throwing(snapshot)).toBeUndefined()
    expect(createEventFilter({})(snapshot)).toBe(snapshot)
  })

  it('never delivers an entry the subscriber may not read (property)', () => {
    const path = fc.constantFrom('/a', '/a/b', '/ab', '/b/c', '/b', '/c/d/e')
    fc.assert(
      fc.property(
        fc.array(path, { minLength: 1, maxLength: 6 }),
        fc.subarray(['/a', '/a/b', '/ab', '/b/c', '/b', '/c/d/e']),
        fc.option(fc.constantFrom('/a', '/b', '/c/', '/'), { nil: undefined }),
        (paths, readablePaths, prefix) => {
          const event = created(...paths)
          const filter = createEventFilter({
            ...(prefix === undefined ? {} : { pathPrefix: prefix }),
            canRead: (p) => readablePaths.includes(p),
          })
          const out = filter(event) as EventEnvelope<'entries_created'> | undefined
          const visible = paths.filter((p) => readablePaths.includes(p))
          const keep =
            visible.length > 0 &&
            (prefix === undefined || visible.some((p) => p.startsWith(prefix)))
          expect(out !== undefined).toBe(keep)
          if (out !== undefined) expect(out.payload.entries.map((e) => e.path)).toEqual(visible)
        },
      ),
    )
  })
})
