import { entryViewSchema, listingSchema, routes } from '@svcdb/contract'
import type { RouteDef } from '@svcdb/contract'
import { createHasher } from '@svcdb/engine'
import * as v from 'valibot'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createApp } from '../src/app'
import { DEFAULT_SERVER_CONFIG } from '../src/config/server-config'
import type { ServerConfig } from '../src/config/server-config'
import { createLogger } from '../src/logger'
import { openServices } from '../src/services/open-services'
import type { Services } from '../src/services/open-services'

type RouteName = keyof typeof routes

/** One request of the tour: the route it exercises, and how to call it. */
interface Step {
  route: RouteName
  status?: number
  call(): Promise<Response>
}

/** Where a tour's server keeps its database, and how to remove it afterwards. */
export interface TourStorage {
  config: Pick<ServerConfig, 'dataDir' | 'storage'>
  dispose(): Promise<void>
}

/**
 * Calls every contract route with a response schema on the server as `svcdb start` builds
 * it, on the storage `open` makes, and validates every JSON answer against its schema.
 */
export function runRouteTour(name: string, open: () => Promise<TourStorage>): void {
  let storage: TourStorage
  let services: Services
  let app: ReturnType<typeof createApp>
  let rootToken: string
  const printed: string[] = []

  beforeAll(async () => {
    storage = await open()
    // The server as `svcdb start` builds it (every route), magic links printed (`--dev`).
    const config = { ...DEFAULT_SERVER_CONFIG, ...storage.config, dev: true, console: false }
    services = await openServices(config, createLogger({ level: 'silent' }), {
      baseUrl: () => 'http://localhost',
      stdout: (text) => printed.push(text),
    })
    app = createApp({
      authenticator: services.authenticator,
      handlers: services.handlers,
      health: services.health,
      logger: createLogger({ level: 'silent' }),
    })
    const { rootApiKey } = await services.auth.ensureRootKey()
    rootToken = (await services.auth.exchangeApiKey(rootApiKey as string)).token
  })

  afterAll(async () => {
    services.beginShutdown()
    await services.close()
    await storage.dispose()
  })

  const call = (method: string, path: string, init: { json?: unknown; body?: BodyInit } = {}) =>
    Promise.resolve(
      app.request(path, {
        method,
        headers: {
          authorization: `Bearer ${rootToken}`,
          ...(init.json === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(init.json === undefined ? {} : { body: JSON.stringify(init.json) }),
        ...(init.body === undefined ? {} : { body: init.body }),
      }),
    )

  /** Checks the answer's status and validates its JSON body against `schema`; returns the body. */
  async function checked<S extends v.GenericSchema>(
    res: Response,
    status: number,
    schema: S,
    what: string,
  ): Promise<v.InferOutput<S>> {
    const text = await res.text()
    expect(res.status, `${what}: ${text}`).toBe(status)
    const result = v.safeParse(schema, JSON.parse(text))
    expect(
      result.issues?.map((i) => `${v.getDotPath(i) ?? ''}: ${i.message}`),
      what,
    ).toBeUndefined()
    return result.output as v.InferOutput<S>
  }

  /** Ids of values answered earlier in the tour, for the requests that name them. */
  const saved: Record<string, string> = {}
  const bodyOf = async <T>(res: Response) => (await res.clone().json()) as T

  describe(`every JSON answer of every route (${name})`, () => {
    it('validates against its route response schema, at its success status', async () => {
      const hasher = await createHasher('sha256')
      const chunk = new TextEncoder().encode('one chunk of bytes')
      const chunkHash = Buffer.from(hasher.hashDomain('chunk', chunk)).toString('hex')
      const steps: Step[] = [
        { route: 'systemHealth', call: () => call('GET', '/system/health') },
        { route: 'systemStats', call: () => call('GET', '/system/stats') },
        { route: 'systemPeers', call: () => call('GET', '/system/peers') },
        {
          route: 'systemPeersForget',
          call: async () => {
            // What a peer removed from the configuration leaves behind: its pin.
            await services.db.peerPins.set('gone', services.db.head())
            return call('DELETE', '/system/peers/gone')
          },
        },
        { route: 'authWhoami', call: () => call('GET', '/auth/whoami') },
        {
          route: 'filesWrite',
          status: 201,
          call: () => call('PUT', '/files/docs/a.json', { body: '{"n":1}' }),
        },
        {
          route: 'filesMkdir',
          call: () => call('POST', '/files/mkdir', { json: { path: '/empty' } }),
        },
        {
          route: 'filesMove',
          call: () => call('POST', '/files/move', { json: { from: '/empty', to: '/moved' } }),
        },
        {
          route: 'filesCopy',
          call: () =>
            call('POST', '/files/copy', {
              json: { paths: ['/docs/a.json'], destination: '/moved' },
            }),
        },
        {
          route: 'linksWrite',
          call: () => call('PUT', '/links/docs/link', { json: { target: '/docs/a.json' } }),
        },
        {
          route: 'filesQuery',
          call: () => call('POST', '/files/query', { json: { path: '/docs' } }),
        },
        {
          route: 'uploadsCheck',
          call: () => call('POST', '/uploads/check', { json: { hashes: [chunkHash] } }),
        },
        {
          route: 'uploadsChunk',
          status: 201,
          call: () => call('PUT', `/uploads/chunks/${chunkHash}`, { body: chunk }),
        },
        {
          route: 'uploadsCommit',
          status: 201,
          call: () =>
            call('POST', '/uploads/commit', {
              json: { path: '/up/one.txt', chunks: [{ hash: chunkHash, size: chunk.length }] },
            }),
        },
        {
          route: 'uploadsCommitMany',
          call: () =>
            call('POST', '/uploads/commit-many', {
              json: {
                files: [{ path: '/up/two.txt', chunks: [{ hash: chunkHash, size: chunk.length }] }],
              },
            }),
        },
        { route: 'filesDelete', call: () => call('DELETE', '/files/moved/a.json') },
        {
          route: 'snapshotsCreate',
          call: () => call('POST', '/versions/snapshots', { json: { name: 's1' } }),
        },
        { route: 'snapshotsList', call: () => call('GET', '/versions/snapshots') },
        {
          route: 'forksCreate',
          call: () => call('POST', '/versions/forks', { json: { name: 'f1' } }),
        },
        { route: 'forksList', call: () => call('GET', '/versions/forks') },
        { route: 'versionsHistory', call: () => call('GET', '/versions/history/docs/a.json') },
        {
          route: 'versionsRestorePath',
          call: () => call('POST', '/versions/restore/docs/a.json', { json: { snapshot: 's1' } }),
        },
        {
          route: 'versionsRestore',
          call: () => call('POST', '/versions/restore', { json: { name: 's1' } }),
        },
        { route: 'forksPromote', call: () => call('POST', '/versions/forks/f1/promote') },
        { route: 'forksAbandon', call: () => call('DELETE', '/versions/forks/f1') },
        { route: 'snapshotsDelete', call: () => call('DELETE', '/versions/snapshots/s1') },
        { route: 'versionsLog', call: () => call('GET', '/versions/log') },
        {
          route: 'versionsChanges',
          call: () => call('GET', `/versions/changes?from=${saved.firstHead}`),
        },
        {
          route: 'versionsImport',
          call: async () => {
            const archive = await (await call('POST', '/versions/export')).arrayBuffer()
            return call('POST', '/versions/import', { body: archive })
          },
        },
        {
          route: 'versionsPromote',
          call: () => call('POST', `/versions/promote?hash=${services.db.head()}`),
        },
        {
          route: 'usersCreate',
          call: () =>
            call('POST', '/system/users', { json: { username: 'ada', email: 'ada@example.com' } }),
        },
        { route: 'usersList', call: () => call('GET', '/system/users') },
        { route: 'usersGet', call: () => call('GET', `/system/users/${saved.userId}`) },
        {
          route: 'usersUpdate',
          call: () => call('PATCH', `/system/users/${saved.userId}`, { json: { tags: ['staff'] } }),
        },
        {
          route: 'groupsCreate',
          call: () =>
            call('POST', '/system/groups', {
              json: {
                name: 'staff',
                default_allow: '/docs/**',
                default_deny: '',
                query_field: 'tags',
                query_operator: 'has',
                query_value: 'staff',
              },
            }),
        },
        { route: 'groupsList', call: () => call('GET', '/system/groups') },
        { route: 'groupsGet', call: () => call('GET', '/system/groups/staff') },
        {
          route: 'groupsUpdate',
          call: () =>
            call('PATCH', '/system/groups/staff', { json: { default_deny: '/docs/secret/**' } }),
        },
        {
          route: 'sharesCreate',
          call: () =>
            call('POST', '/files/share', {
              json: { paths: ['/up'], groups: ['staff'], permissions: '-r--l---' },
            }),
        },
        { route: 'sharesList', call: () => call('GET', '/files/shares?path=/up') },
        {
          route: 'sharesDelete',
          call: () => call('DELETE', '/files/shares', { json: { path: '/up', group: 'staff' } }),
        },
        {
          route: 'shareLinksCreate',
          call: () =>
            call('POST', '/files/share-link', {
              json: { paths: ['/up'], permissions: '-r--l---' },
            }),
        },
        { route: 'shareLinksList', call: () => call('GET', '/files/share-links') },
        {
          route: 'shareLinksDelete',
          call: () => call('DELETE', `/files/share-links/${saved.linkId}`),
        },
        { route: 'groupsDelete', call: () => call('DELETE', '/system/groups/staff') },
        {
          route: 'authMagicLink',
          call: () => call('POST', '/auth/magic-link', { json: { email: 'ada@example.com' } }),
        },
        {
          route: 'authMagicLinkVerify',
          call: async () => {
            await services.auth.idle()
            const code = /code=([^\s&]+)/.exec(printed.join(''))?.[1] ?? ''
            return call('GET', `/auth/magic-link/verify?code=${code}`)
          },
        },
        {
          route: 'authAdminKeysCreate',
          call: () => call('POST', '/auth/keys/admin', { json: { user_id: saved.userId } }),
        },
        { route: 'authAdminKeysList', call: () => call('GET', '/auth/keys/admin') },
        {
          route: 'authToken',
          call: () => call('POST', '/auth/token', { json: { api_key: saved.adminKey } }),
        },
        {
          route: 'authRefresh',
          call: () =>
            call('POST', '/auth/refresh', { json: { refresh_token: saved.refreshToken } }),
        },
        {
          route: 'authAdminKeysRevoke',
          call: () => call('DELETE', `/auth/keys/admin/${saved.adminKeyId}`),
        },
        {
          route: 'authKeysCreate',
          call: () =>
            call('POST', '/auth/keys', {
              json: { label: 'laptop', rules: [{ '/docs/**': '-r--l---' }] },
            }),
        },
        { route: 'authKeysList', call: () => call('GET', '/auth/keys') },
        { route: 'authKeysRevoke', call: () => call('DELETE', `/auth/keys/${saved.keyId}`) },
        { route: 'usersDeactivate', call: () => call('DELETE', `/system/users/${saved.userId}`) },
        { route: 'systemGc', call: () => call('POST', '/system/gc?dry_run=true') },
        {
          route: 'tasksReindex',
          call: () => call('POST', '/system/tasks/reindex', { json: { path: '/docs' } }),
        },
        {
          route: 'tasksGc',
          call: () => call('POST', '/system/tasks/gc', { json: { dry_run: true } }),
        },
        { route: 'tasksList', call: () => call('GET', '/system/tasks') },
        { route: 'tasksGet', call: () => call('GET', `/system/tasks/${saved.taskId}`) },
        { route: 'tasksCancel', call: () => call('DELETE', `/system/tasks/${saved.taskId}`) },
        {
          route: 'cronCreate',
          call: () =>
            call('POST', '/system/cron', {
              json: {
                id: 'nightly',
                schedule: '0 3 * * *',
                task_type: 'gc',
                args: { dry_run: true },
                enabled: true,
              },
            }),
        },
        { route: 'cronList', call: () => call('GET', '/system/cron') },
        {
          route: 'cronUpdate',
          call: () => call('PATCH', '/system/cron/nightly', { json: { enabled: false } }),
        },
        { route: 'cronDelete', call: () => call('DELETE', '/system/cron/nightly') },
        {
          route: 'emailConfigPut',
          call: () =>
            call('PUT', '/system/email-config', {
              json: {
                provider: 'smtp',
                host: '127.0.0.1',
                port: 1,
                username: 'mailer',
                password: 'hunter2',
                from_address: 'svcdb@example.com',
                tls: false,
              },
            }),
        },
        { route: 'emailConfigGet', call: () => call('GET', '/system/email-config') },
        {
          route: 'emailTest',
          call: () => call('POST', '/system/email-test', { json: { to: 'ada@example.com' } }),
        },
      ]

      saved.firstHead = services.db.head()
      const answered = new Set<RouteName>()
      for (const step of steps) {
        const route: RouteDef = routes[step.route]
        const res = await step.call()
        const status = step.status ?? route.successStatus ?? 200
        const body = await bodyOf<Record<string, unknown>>(res)
        await checked(res, status, route.response as v.GenericSchema, step.route)
        answered.add(step.route)
        remember(saved, step.route, body)
      }

      // Every route whose contract declares a JSON answer was exercised above.
      const declared = (Object.keys(routes) as RouteName[]).filter(
        (name) => (routes[name] as RouteDef).response !== undefined,
      )
      expect(declared.filter((name) => !answered.has(name))).toEqual([])

      // GET /files answers JSON for a directory (a listing) and with stat (an entry).
      await checked(await call('GET', '/files/docs'), 200, listingSchema, 'listing')
      await checked(await call('GET', '/files/docs/a.json?stat=true'), 200, entryViewSchema, 'stat')
      await checked(
        await call('GET', '/files/docs/link?nofollow=true'),
        200,
        entryViewSchema,
        'link',
      )
    })
  })
}

/** Keeps the ids later steps name. */
function remember(
  saved: Record<string, string>,
  route: RouteName,
  body: Record<string, unknown>,
): void {
  const text = (key: string) => String(body[key])
  if (route === 'usersCreate') saved.userId = text('user_id')
  if (route === 'shareLinksCreate') saved.linkId = text('key_id')
  if (route === 'authAdminKeysCreate') {
    saved.adminKey = text('api_key')
    saved.adminKeyId = text('key_id')
  }
  if (route === 'authToken') saved.refreshToken = text('refresh_token')
  if (route === 'authKeysCreate') saved.keyId = text('key_id')
  if (route === 'tasksReindex') saved.taskId = text('id')
}
