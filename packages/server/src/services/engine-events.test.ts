import type { Database } from '@svcdb/engine'
import { createEventBus } from '@svcdb/events'
import type { EventBus, EventEnvelope } from '@svcdb/events'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createEngineEventPublisher, MAX_ENTRIES_PER_EVENT } from './engine-events'
import type { EngineEventPublisher } from './engine-events'
import { openTempDatabase } from '../../test/kit'
import type { TempDatabase } from '../../test/kit'

let temp: TempDatabase
let db: Database
let bus: EventBus
let publisher: EngineEventPublisher
const errors: unknown[] = []

beforeEach(async () => {
  temp = await openTempDatabase('svcdb-engine-events-')
  db = temp.db
  bus = createEventBus()
  errors.length = 0
  publisher = createEngineEventPublisher(db, bus, (err) => errors.push(err))
  db.onChange((change) => publisher.publish(change))
})
afterEach(async () => {
  await publisher.idle()
  await bus.close()
  await temp.destroy()
})

async function drain(sub: ReturnType<EventBus['subscribe']>): Promise<EventEnvelope[]> {
  await publisher.idle()
  const out: EventEnvelope[] = []
  while (sub.pending > 0) out.push(...(await sub.take()))
  return out
}

const summary = (events: EventEnvelope[]) =>
  events.map((e) =>
    e.event_type === 'entries_created' || e.event_type === 'entries_deleted'
      ? `${e.event_type}:${e.payload.entries.map((x) => x.path).join(',')}`
      : e.event_type,
  )

describe('engine events', () => {
  it('publishes every kind of write, and snapshots and forks', async () => {
    const sub = bus.subscribe({})
    await db.writeFile('/a.txt', 'a')
    await db.mkdir('/d')
    await db.copy('/a.txt', '/d/a.txt')
    await db.move('/a.txt', '/b.txt')
    await db.symlink('/l', '/b.txt')
    await db.delete('/l')
    await db.snapshots.create('s')
    await db.forks.create('f')
    await db.fork('f').writeFile('/f.txt', 'f')
    const events = await drain(sub)
    expect(summary(events)).toEqual([
      'entries_created:/a.txt',
      'entries_created:/d',
      'entries_created:/d/a.txt',
      'entries_deleted:/a.txt',
      'entries_created:/b.txt',
      'entries_created:/l',
      'entries_deleted:/l',
      'versions_created',
      'versions_created',
      'entries_created:/f.txt',
    ])
    expect(events.at(-1)?.payload).toMatchObject({ fork: 'f' })
  })

  it('publishes a restore, a promote and an import as the entries they changed, in order', async () => {
    await db.writeFile('/keep.txt', 'k')
    await db.writeFile('/old.txt', 'o')
    await db.snapshots.create('before')
    await db.delete('/old.txt')
    await db.writeFile('/new.txt', 'n')
    const sub = bus.subscribe({})
    await db.snapshots.restore('before')
    await db.writeFile('/after.txt', 'x')
    const events = await drain(sub)
    expect(summary(events)).toEqual([
      'entries_deleted:/new.txt',
      'entries_created:/old.txt',
      'entries_created:/after.txt',
    ])
    expect(errors).toEqual([])
  })

  it('splits a large move into events of at most MAX_ENTRIES_PER_EVENT entries', async () => {
    const before = db.head()
    const files = MAX_ENTRIES_PER_EVENT + 5
    for (let i = 0; i < files; i++)
      await db.writeFile(`/many/f${String(i).padStart(5, '0')}`, `${i}`)
    await db.snapshots.create('full')
    await db.promote(before)
    await publisher.idle()
    const sub = bus.subscribe({})
    await db.snapshots.restore('full')
    const events = await drain(sub)
    // One directory appeared: reported once, at its own path.
    expect(summary(events)).toEqual(['entries_created:/many'])
    await db.promote(before)
    await db.mkdir('/many')
    await publisher.idle()
    const sub2 = bus.subscribe({})
    await db.snapshots.restore('full')
    const sizes = (await drain(sub2)).map((e) =>
      e.event_type === 'entries_created' ? e.payload.entries.length : -1,
    )
    expect(sizes).toEqual([MAX_ENTRIES_PER_EVENT, 5])
    // ≈ 1,000 commits one after another: seconds on a machine busy with other test files.
  }, 30_000)
})
