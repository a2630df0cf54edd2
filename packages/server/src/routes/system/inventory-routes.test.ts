import {
  createdShareLinkSchema,
  forkSchema,
  historySchema,
  snapshotSchema,
  statsResponseSchema,
} from '@svcdb/contract'
import { createEventBus } from '@svcdb/events'
import type { EventBus } from '@svcdb/events'
import { decodeSseStream } from '@svcdb/events/sse'
import { createScheduler } from '@svcdb/scheduler'
import * as v from 'valibot'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createBearerAuthenticator } from '../../auth/bearer-authenticator'
import { createEmailService } from '../../email'
import { createLogger } from '../../logger'
import { createDiskSampler } from '../../observability/disk-sampler'
import type { DiskSampler } from '../../observability/disk-sampler'
import { createServerMetrics } from '../../observability/server-metrics'
import { createEngineEventPublisher } from '../../services/engine-events'
import { namedVersionRouteHandlers } from '../named-versions/named-version-route-handlers'
import { createShareNotifier } from '../shares/share-notifier'
import type { ShareNotifier } from '../shares/share-notifier'
import { shareRouteHandlers } from '../shares/share-route-handlers'
import { errorCode, startTestApp } from '../../../test/kit'
import type { TestApp } from '../../../test/kit'
import { systemRouteHandlers } from './system-route-handlers'

// Issue 23, item 14: what a share link, or any token without `list` on /, sees of the whole
// database. Every caller is real: a share link made through POST /files/share-link, keys and
// users from the real auth service, each exchanged for a token.

let kit: TestApp
let bus: EventBus
let disk: DiskSampler
let notifier: ShareNotifier
let shutdown: AbortController

beforeEach(async () => {
  bus = createEventBus()
  shutdown = new AbortController()
  kit = await startTestApp(({ db, auth, dir }) => {
    const engineEvents = createEngineEventPublisher(db, bus, (err) => {
      throw err
    })
    db.onChange((change) => engineEvents.publish(change))
    disk = createDiskSampler(dir)
    notifier = createShareNotifier({
      auth,
      email: createEmailService({ db }),
      logger: createLogger({ level: 'silent' }),
      baseUrl: () => 'http://db.test',
    })
    return [
      ...systemRouteHandlers({
        db,
        auth,
        authenticator: createBearerAuthenticator(auth),
        bus,
        disk,
        metrics: createServerMetrics({ db, bus, tasks: createScheduler({}).tasks }),
        identity: { version: '1.0.0', databasePath: dir, nodeId: 0, startedAt: Date.now() },
        now: Date.now,
        shutdown: shutdown.signal,
      }),
      ...namedVersionRouteHandlers({ db, auth }),
      ...shareRouteHandlers({ auth, bus, notifier }),
    ]
  })
})
afterEach(async () => {
  shutdown.abort()
  disk.stop()
  await notifier.idle()
  bus.close()
  await kit.close()
})

type Caller = TestApp['as'] extends (token: string) => infer C ? C : never

/** The callers of the threat model, each with a real token. */
async function callers(): Promise<{
  root: Caller
  /** A read-only share link on /pub. */
  link: Caller
  /** Root's own key, narrowed by rules to read-only on / itself and everything under /docs. */
  narrowKey: Caller
  /** A user whose group allows /home/ada/**: list on / by traversal (spec rule 6). */
  member: Caller
  /** A user with no group and no share: no permission anywhere. */
  stranger: Caller
}> {
  const { auth, rootToken, as } = kit
  const root = as(rootToken)
  const made = await root('/files/share-link', {
    method: 'POST',
    json: { paths: ['/pub'], permissions: '-r--l---' },
  })
  expect(made.status).toBe(201)
  const link = v.parse(createdShareLinkSchema, await made.json())
  const rootPrincipal = await auth.authenticate(rootToken)
  const narrow = await auth.keys.create(rootPrincipal, {
    rules: [{ '/': '-r------' }, { '/docs/**': 'crudlify' }],
  })
  const ada = await auth.users.create({ username: 'ada' })
  await auth.users.update(ada.userId, { tags: ['staff'] })
  await auth.groups.create({
    name: 'staff',
    defaultAllow: '/home/ada/**',
    defaultDeny: '',
    queryField: 'tags',
    queryOperator: 'has',
    queryValue: 'staff',
  })
  const bob = await auth.users.create({ username: 'bob' })
  const tokenOf = async (key: string) => as((await auth.exchangeApiKey(key)).token)
  const keyOf = async (userId: string) => (await auth.keys.create(rootPrincipal, { userId })).key
  return {
    root,
    link: await tokenOf(link.key),
    narrowKey: await tokenOf(narrow.key),
    member: await tokenOf(await keyOf(ada.userId)),
    stranger: await tokenOf(await keyOf(bob.userId)),
  }
}

describe('GET /system/stats and /system/metrics', () => {
  it('answer 404 to a share link and a key without list on /, 403 to a user without it', async () => {
    const { link, narrowKey, stranger } = await callers()
    for (const caller of [link, narrowKey]) {
      const res = await caller('/system/stats')
      expect(res.status).toBe(404)
      const text = await res.text()
      expect(JSON.parse(text)).toEqual({
        error: { code: 'NOT_FOUND', message: 'not found: /system/stats' },
      })
      expect(text).not.toContain(kit.dir)
      expect(await errorCode(await caller('/system/metrics'), 404)).toBe('NOT_FOUND')
    }
    expect(await errorCode(await stranger('/system/stats'), 403)).toBe('FORBIDDEN')
    expect(await errorCode(await stranger('/system/metrics'), 403)).toBe('FORBIDDEN')
  })

  it('show root the database path and hide it from a user who may list /', async () => {
    const { root, member } = await callers()
    const asRoot = v.parse(statsResponseSchema, await (await root('/system/stats')).json())
    expect(asRoot.identity.database_path).toBe(kit.dir)

    const res = await member('/system/stats')
    expect(res.status).toBe(200)
    const text = await res.text()
    expect(text).not.toContain(kit.dir)
    const asMember = v.parse(statsResponseSchema, JSON.parse(text))
    expect(asMember.identity.database_path).toBe('')
    expect(asMember.counts).toEqual(asRoot.counts)
    expect((await member('/system/metrics')).status).toBe(200)
    expect((await root('/system/metrics')).status).toBe(200)
  })
})

describe('snapshot and fork listings', () => {
  it('are refused to callers kept from the inventory and unchanged for the others', async () => {
    const { root, link, narrowKey, member, stranger } = await callers()
    await kit.db.writeFile('/pub/a.txt', 'a')
    await kit.db.snapshots.create('q3-layoffs')
    await kit.db.forks.create('merger-draft')
    for (const caller of [link, narrowKey]) {
      const snapshots = await caller('/versions/snapshots')
      expect(await errorCode(snapshots.clone(), 404)).toBe('NOT_FOUND')
      expect(await snapshots.text()).not.toContain('q3-layoffs')
      const forks = await caller('/versions/forks')
      expect(await errorCode(forks.clone(), 404)).toBe('NOT_FOUND')
      expect(await forks.text()).not.toContain('merger-draft')
    }
    expect(await errorCode(await stranger('/versions/snapshots'), 403)).toBe('FORBIDDEN')
    expect(await errorCode(await stranger('/versions/forks'), 403)).toBe('FORBIDDEN')

    for (const caller of [root, member]) {
      const snapshots = await caller('/versions/snapshots')
      expect(snapshots.status).toBe(200)
      const listed = v.parse(v.object({ items: v.array(snapshotSchema) }), await snapshots.json())
      expect(listed.items.map((s) => s.name)).toEqual(['q3-layoffs'])
      const forks = v.parse(
        v.object({ items: v.array(forkSchema) }),
        await (await caller('/versions/forks')).json(),
      )
      expect(forks.items.map((f) => f.name)).toEqual(['merger-draft'])
    }
  })
})

describe('GET /versions/history', () => {
  it("gives a share link its path's changes without naming snapshots, and 404 elsewhere", async () => {
    const { root, link } = await callers()
    await kit.db.writeFile('/pub/a.txt', 'one')
    await kit.db.writeFile('/secret/s.txt', 'salary')
    await kit.db.snapshots.create('q3-layoffs')
    await kit.db.writeFile('/pub/a.txt', 'two')

    const res = await link('/versions/history/pub/a.txt')
    expect(res.status).toBe(200)
    const text = await res.text()
    expect(text).not.toContain('q3-layoffs')
    const seen = v.parse(historySchema, JSON.parse(text))
    expect(seen.items.map((i) => i.change_type)).toEqual(['modified', 'added'])

    const full = v.parse(historySchema, await (await root('/versions/history/pub/a.txt')).json())
    expect(full.items.some((i) => i.snapshot === 'q3-layoffs')).toBe(true)

    // An unreadable path answers as a missing one: the same 404, whether it exists or not.
    const secret = await link('/versions/history/secret/s.txt')
    const missing = await link('/versions/history/secret/none.txt')
    expect(await errorCode(secret, 404)).toBe('NOT_FOUND')
    expect(await errorCode(missing, 404)).toBe('NOT_FOUND')
  })
})

describe('GET /system/events', () => {
  it('delivers versions_created to root and not to a share link or a key without list on /', async () => {
    const { root, link, narrowKey } = await callers()
    const open = async (caller: Caller) => {
      const res = await caller('/system/events?events=versions_created,entries_created')
      expect(res.status).toBe(200)
      return decodeSseStream(res.body as ReadableStream<Uint8Array>)
    }
    const rootEvents = await open(root)
    const linkEvents = await open(link)
    const narrowEvents = await open(narrowKey)

    expect(
      (await root('/versions/snapshots', { method: 'POST', json: { name: 'q3' } })).status,
    ).toBe(201)
    // Writes each restricted subscriber may read: the first thing it receives must be these.
    await kit.db.writeFile('/pub/after.txt', 'p')
    await kit.db.writeFile('/docs/after.txt', 'd')

    const first = async (events: typeof rootEvents) => {
      const next = (await events.next()).value as { event: string; data: string }
      return { type: next.event, payload: JSON.parse(next.data).payload as unknown }
    }
    expect(await first(rootEvents)).toMatchObject({
      type: 'versions_created',
      payload: { kind: 'snapshot', name: 'q3' },
    })
    expect(await first(linkEvents)).toEqual({
      type: 'entries_created',
      payload: expect.objectContaining({
        entries: [{ path: '/pub/after.txt', entry_type: 'file' }],
      }),
    })
    expect(await first(narrowEvents)).toMatchObject({
      type: 'entries_created',
      payload: { entries: [{ path: '/docs/after.txt' }] },
    })
    await Promise.all([rootEvents.return(), linkEvents.return(), narrowEvents.return()])
  })
})
