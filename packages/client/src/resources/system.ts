import { routes } from '@svcdb/contract'
import { readBody } from '../http/read-body'
import type { BodyOf, CallOptions } from '../http/route-types'
import type { ResponseOf, Transport } from '../http/transport'

type R = typeof routes

/** Health, stats, peers, metrics and garbage collection. */
export interface SystemApi {
  /** Needs no credential. */
  health(options?: CallOptions): Promise<ResponseOf<R['systemHealth']>>
  stats(options?: CallOptions): Promise<ResponseOf<R['systemStats']>>
  /**
   * Root: every configured replication peer (`--peer NAME=URL`) with its sync state, lag, last
   * error, clock offset and round trip, as the server answers them (snake_case). Empty when
   * the server has no peers.
   */
  peers(options?: CallOptions): Promise<ResponseOf<R['systemPeers']>['items']>
  /**
   * Root: drops what the server kept of a peer no longer configured with `--peer` (its
   * `peer/NAME` pins, which keep the peer's last version from GC, its read-only cursor, its
   * staging fork, its status) and answers `{ name, removed }`. 409 `CONFLICT` while the peer
   * is still configured, 404 `NOT_FOUND` when nothing of it is kept.
   */
  forgetPeer(name: string, options?: CallOptions): Promise<ResponseOf<R['systemPeersForget']>>
  /** The Prometheus text exposition. */
  metrics(options?: CallOptions): Promise<string>
  /** Root: runs GC now and answers when it is done. */
  gc(options?: CallOptions & { dryRun?: boolean }): Promise<ResponseOf<R['systemGc']>>
}

/** Background tasks (root). */
export interface TasksApi {
  reindex(path: string, options?: CallOptions): Promise<ResponseOf<R['tasksReindex']>>
  gc(options?: CallOptions & { dryRun?: boolean }): Promise<ResponseOf<R['tasksGc']>>
  list(options?: CallOptions): Promise<ResponseOf<R['tasksList']>['items']>
  get(id: string, options?: CallOptions): Promise<ResponseOf<R['tasksGet']>>
  /** Moves a task in any state to `cancelled`, aborting it when running. */
  cancel(id: string, options?: CallOptions): Promise<ResponseOf<R['tasksCancel']>>
}

/** Cron schedules (root). */
export interface CronApi {
  list(options?: CallOptions): Promise<ResponseOf<R['cronList']>['items']>
  create(
    input: BodyOf<R['cronCreate']>,
    options?: CallOptions,
  ): Promise<ResponseOf<R['cronCreate']>>
  update(
    id: string,
    input: BodyOf<R['cronUpdate']>,
    options?: CallOptions,
  ): Promise<ResponseOf<R['cronUpdate']>>
  delete(id: string, options?: CallOptions): Promise<ResponseOf<R['cronDelete']>>
}

/** Email configuration (root). */
export interface EmailApi {
  /** The stored configuration with secrets masked (404 `NOT_FOUND` when none). */
  getConfig(options?: CallOptions): Promise<ResponseOf<R['emailConfigGet']>>
  setConfig(
    config: BodyOf<R['emailConfigPut']>,
    options?: CallOptions,
  ): Promise<ResponseOf<R['emailConfigPut']>>
  /** Sends a test message; `{sent: false, error}` when sending failed. */
  test(to: string, options?: CallOptions): Promise<ResponseOf<R['emailTest']>>
}

/** @internal */
export function systemApi(t: Transport): SystemApi {
  return {
    health: (o = {}) => t.json(routes.systemHealth, { signal: o.signal }),
    stats: (o = {}) => t.json(routes.systemStats, { signal: o.signal }),
    peers: async (o = {}) => (await t.json(routes.systemPeers, { signal: o.signal })).items,
    forgetPeer: (name, o = {}) =>
      t.json(routes.systemPeersForget, { params: { name }, signal: o.signal }),
    metrics: async (o = {}) =>
      readBody(await t.send(routes.systemMetrics, { signal: o.signal }), (r) => r.text(), o.signal),
    gc: (o = {}) =>
      t.json(routes.systemGc, { query: { dry_run: o.dryRun === true }, signal: o.signal }),
  }
}

/** @internal */
export function tasksApi(t: Transport): TasksApi {
  return {
    reindex: (path, o = {}) => t.json(routes.tasksReindex, { json: { path }, signal: o.signal }),
    gc: (o = {}) =>
      t.json(routes.tasksGc, { json: { dry_run: o.dryRun === true }, signal: o.signal }),
    list: async (o = {}) => (await t.json(routes.tasksList, { signal: o.signal })).items,
    get: (id, o = {}) => t.json(routes.tasksGet, { params: { id }, signal: o.signal }),
    cancel: (id, o = {}) => t.json(routes.tasksCancel, { params: { id }, signal: o.signal }),
  }
}

/** @internal */
export function cronApi(t: Transport): CronApi {
  return {
    list: async (o = {}) => (await t.json(routes.cronList, { signal: o.signal })).items,
    create: (json, o = {}) => t.json(routes.cronCreate, { json, signal: o.signal }),
    update: (id, json, o = {}) =>
      t.json(routes.cronUpdate, { params: { id }, json, signal: o.signal }),
    delete: (id, o = {}) => t.json(routes.cronDelete, { params: { id }, signal: o.signal }),
  }
}

/** @internal */
export function emailApi(t: Transport): EmailApi {
  return {
    getConfig: (o = {}) => t.json(routes.emailConfigGet, { signal: o.signal }),
    setConfig: (json, o = {}) => t.json(routes.emailConfigPut, { json, signal: o.signal }),
    test: (to, o = {}) => t.json(routes.emailTest, { json: { to }, signal: o.signal }),
  }
}
