import type { Auth } from '@svcdb/auth'
import {
  createdShareLinkSchema,
  shareLinkSchema,
  shareResultSchema,
  shareSchema,
} from '@svcdb/contract'
import type { Database } from '@svcdb/engine'
import { createEventBus } from '@svcdb/events'
import type { EventBus } from '@svcdb/events'
import * as v from 'valibot'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createEmailService } from '../../email'
import type { EmailService } from '../../email'
import { errorCode, startSmtpTestServer, startTestApp } from '../../../test/kit'
import type { SmtpTestServer, TestApp } from '../../../test/kit'
import { createLogger } from '../../logger'
import { fileRouteHandlers } from '../files/file-route-handlers'
import { createShareNotifier } from './share-notifier'
import type { ShareNotifier } from './share-notifier'
import { shareRouteHandlers } from './share-route-handlers'

let kit: TestApp
let db: Database
let auth: Auth
let bus: EventBus
let email: EmailService
let notifier: ShareNotifier
let smtp: SmtpTestServer
let rootToken: string
let as: TestApp['as']

beforeEach(async () => {
  bus = createEventBus()
  smtp = await startSmtpTestServer()
  kit = await startTestApp((deps) => {
    email = createEmailService({ db: deps.db })
    notifier = createShareNotifier({
      auth: deps.auth,
      email,
      logger: createLogger({ level: 'silent' }),
      baseUrl: () => 'http://db.test',
    })
    return [...shareRouteHandlers({ auth: deps.auth, bus, notifier }), ...fileRouteHandlers(deps)]
  })
  ;({ db, auth, rootToken, as } = kit)
})
afterEach(async () => {
  await notifier.idle()
  await smtp.close()
  await bus.close()
  await kit.close()
})

async function tokenOf(userId: string): Promise<string> {
  const { key } = await auth.keys.create(await auth.authenticate(rootToken), { userId })
  return (await auth.exchangeApiKey(key)).token
}

const configureEmail = () =>
  email.configure({
    provider: 'smtp',
    host: '127.0.0.1',
    port: smtp.port,
    username: 'mailer',
    password: 'secret',
    fromAddress: 'svcdb@example.com',
    fromName: 'svcdb',
    tls: false,
  })

describe('shares', () => {
  it('grant exact permissions, announce them, and are listed and revoked', async () => {
    const root = as(rootToken)
    await db.writeFile('/team/plan.md', '# plan')
    await db.writeFile('/team/secret.md', 'no')
    const ada = await auth.users.create({ username: 'ada' })
    const ada$ = as(await tokenOf(ada.userId))
    expect(await errorCode(await ada$('/files/team/plan.md'), 403)).toBe('FORBIDDEN')

    const events = bus.subscribe({ events: ['permissions_changed'] })
    const shared = await root('/files/share', {
      method: 'POST',
      json: { paths: ['/team/plan.md'], users: [ada.userId], permissions: '-r------' },
    })
    expect(shared.status).toBe(200)
    const result = v.parse(shareResultSchema, await shared.json())
    expect(result.items).toEqual([
      {
        path: '/team/plan.md',
        user_id: ada.userId,
        permissions: '-r------',
        created_at: expect.any(Number) as unknown,
      },
    ])
    // Email is not configured: the share proceeds and nobody is notified (spec).
    expect(result.notified).toBe(0)
    const [event] = await events.take()
    expect(event).toMatchObject({
      event_type: 'permissions_changed',
      payload: { path: '/team/plan.md' },
    })

    expect(await (await ada$('/files/team/plan.md')).text()).toBe('# plan')
    expect(await errorCode(await ada$('/files/team/secret.md'), 403)).toBe('FORBIDDEN')
    expect(
      await errorCode(await ada$('/files/team/plan.md', { method: 'PUT', body: 'x' }), 403),
    ).toBe('FORBIDDEN')

    const listed = v.parse(
      v.object({ items: v.array(shareSchema) }),
      await (await root('/files/shares?path=/team/plan.md')).json(),
    )
    expect(listed.items).toHaveLength(1)
    expect((await (await root('/files/shares?path=/other')).json()) as unknown).toEqual({
      items: [],
    })

    const removed = await root('/files/shares', {
      method: 'DELETE',
      json: { path: '/team/plan.md', user: ada.userId },
    })
    expect(await removed.json()).toEqual({ removed: 1 })
    expect((await events.take())[0]?.payload).toEqual({ path: '/team/plan.md' })
    expect(await errorCode(await ada$('/files/team/plan.md'), 403)).toBe('FORBIDDEN')
    events.close()
  })

  it('email the users named and the members of groups named when email is configured', async () => {
    await configureEmail()
    const root = as(rootToken)
    const ada = await auth.users.create({ username: 'ada', email: 'ada@example.com' })
    const bob = await auth.users.create({ username: 'bob', email: 'bob@example.com' })
    await auth.users.create({ username: 'cy' })
    await auth.users.update(bob.userId, { tags: ['eng'] })
    await auth.groups.create({
      name: 'eng',
      defaultAllow: '',
      defaultDeny: '',
      queryField: 'tags',
      queryOperator: 'has',
      queryValue: 'eng',
    })
    const res = await root('/files/share', {
      method: 'POST',
      json: { paths: ['/docs'], users: [ada.userId], groups: ['eng'], permissions: '-r--l---' },
    })
    const result = v.parse(shareResultSchema, await res.json())
    expect(result.items).toHaveLength(2)
    expect(result.notified).toBe(2)
    await notifier.idle()
    const to = smtp.received.flatMap((mail) => mail.to).sort()
    expect(to).toEqual(['ada@example.com', 'bob@example.com'])
    const mail = smtp.received.find((m) => m.to.includes('ada@example.com'))
    expect(mail?.header('subject')).toBe('Shared with you: /docs')
    expect(mail?.decoded).toContain('http://db.test/files/docs')
  })

  it('refuse bad input, unknown subjects and non-root callers, storing nothing', async () => {
    const root = as(rootToken)
    const ada = await auth.users.create({ username: 'ada' })
    const post = (json: unknown) => root('/files/share', { method: 'POST', json })
    const body = { paths: ['/a'], users: [ada.userId], permissions: '-r------' }
    expect(await errorCode(await post({ ...body, users: [] }), 400)).toBe('VALIDATION_FAILED')
    expect(await errorCode(await post({ ...body, permissions: 'rw' }), 400)).toBe(
      'VALIDATION_FAILED',
    )
    expect(await errorCode(await post({ ...body, permissions: '--------' }), 400)).toBe(
      'BAD_REQUEST',
    )
    expect(await errorCode(await post({ ...body, paths: ['/a/../b'] }), 400)).toBe('BAD_REQUEST')
    expect(await errorCode(await post({ ...body, paths: ['relative'] }), 400)).toBe(
      'VALIDATION_FAILED',
    )
    expect(await errorCode(await post({ ...body, users: ['not-a-uuid'] }), 400)).toBe(
      'VALIDATION_FAILED',
    )
    expect(
      await errorCode(
        await post({ ...body, users: ['11111111-1111-4111-8111-111111111111'] }),
        404,
      ),
    ).toBe('NOT_FOUND')
    expect(await errorCode(await post({ ...body, users: undefined, groups: ['none'] }), 404)).toBe(
      'NOT_FOUND',
    )
    expect(
      await errorCode(
        await root('/files/shares', {
          method: 'DELETE',
          json: { path: '/a', user: ada.userId, group: 'g' },
        }),
        400,
      ),
    ).toBe('VALIDATION_FAILED')
    const ada$ = as(await tokenOf(ada.userId))
    expect(await errorCode(await ada$('/files/share', { method: 'POST', json: body }), 403)).toBe(
      'FORBIDDEN',
    )
    expect(await errorCode(await ada$('/files/shares'), 403)).toBe('FORBIDDEN')
    expect(await auth.shares.list()).toEqual([])
  })
})

describe('share links', () => {
  it('create share keys whose rules are their only authority, listed and revoked', async () => {
    const root = as(rootToken)
    await db.writeFile('/pub/a.txt', 'a')
    await db.writeFile('/pub/deep/b.txt', 'b')
    await db.writeFile('/private.txt', 'p')
    const events = bus.subscribe({ events: ['permissions_changed'] })
    const res = await root('/files/share-link', {
      method: 'POST',
      json: { paths: ['/pub'], permissions: '-r--l---', expires_in_days: 7 },
    })
    expect(res.status).toBe(201)
    const link = v.parse(createdShareLinkSchema, await res.json())
    expect(link.key).toMatch(/^svc_/)
    expect(link.paths).toEqual(['/pub'])
    expect(link.expires_at).toBeGreaterThan(Date.now() + 6 * 86_400_000)
    expect((await events.take())[0]?.payload).toEqual({ path: '/pub' })

    const holder = as((await auth.exchangeApiKey(link.key)).token)
    expect(await (await holder('/files/pub/deep/b.txt')).text()).toBe('b')
    expect(await errorCode(await holder('/files/private.txt'), 404)).toBe('NOT_FOUND')
    expect(
      await errorCode(await holder('/files/pub/new.txt', { method: 'PUT', body: 'x' }), 404),
    ).toBe('NOT_FOUND')
    const listing = (await (await holder('/files/')).json()) as { items: { path: string }[] }
    expect(listing.items.map((i) => i.path)).toEqual(['/pub'])

    const links = v.parse(
      v.object({ items: v.array(shareLinkSchema) }),
      await (await root('/files/share-links?path=/pub')).json(),
    )
    expect(links.items.map((l) => l.key_id)).toEqual([link.key_id])

    const revoked = await root(`/files/share-links/${link.key_id}`, { method: 'DELETE' })
    expect(await revoked.json()).toEqual({ revoked: true, key_id: link.key_id })
    expect((await events.take())[0]?.payload).toEqual({ path: '/pub' })
    expect(await errorCode(await holder('/files/pub/a.txt'), 401)).toBe('UNAUTHORIZED')
    expect((await (await root('/files/share-links')).json()) as unknown).toEqual({ items: [] })
    // Revoking again is idempotent, like DELETE /auth/keys/{key_id}; an unknown id is 404.
    expect((await root(`/files/share-links/${link.key_id}`, { method: 'DELETE' })).status).toBe(200)
    expect(
      await errorCode(
        await root('/files/share-links/11111111-1111-4111-8111-111111111111', { method: 'DELETE' }),
        404,
      ),
    ).toBe('NOT_FOUND')
    expect(await errorCode(await root('/files/share-links/nope', { method: 'DELETE' }), 400)).toBe(
      'VALIDATION_FAILED',
    )
    expect(
      await errorCode(
        await root('/files/share-link', {
          method: 'POST',
          json: { paths: ['/pub'], permissions: '-r------', expires_in_days: 0 },
        }),
        400,
      ),
    ).toBe('VALIDATION_FAILED')
    events.close()
  })
})
