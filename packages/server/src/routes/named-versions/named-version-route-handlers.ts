import type { Auth } from '@svcdb/auth'
import { routes } from '@svcdb/contract'
import type { Database } from '@svcdb/engine'
import { normalizePath } from '@svcdb/engine'
import { checkInventory, seesInventory } from '../../auth/inventory-access'
import { changeResultView } from '../../dto/entry-views'
import {
  forkView,
  headMoveView,
  historyEntryView,
  snapshotView,
} from '../../dto/named-version-views'
import { sendView } from '../../dto/send-view'
import type { RouteHandler } from '../../routing/route-handler'
import { handleRoute } from '../../routing/route-handler'
import { accessOf, allow } from '../files/file-access'
import { rawFilePath } from '../files/raw-path'
import { actorOf, expectHeadOf, headLogRoute } from '../versions/head-log-route'
import { versionChangesRoute } from '../versions/version-changes-route'

/** What the named-version routes use. */
export interface NamedVersionRoutesContext {
  db: Database
  auth: Auth
}

/**
 * Snapshots, forks, history, restore and the HEAD log (DESIGN §7.1, §12). A snapshot or fork spans the whole
 * tree, so a non-root caller needs `create` on `/` to make one and `delete` on `/` to drop a
 * snapshot; moving HEAD and managing forks is root's (the route table says so). Listing
 * snapshots or forks, or a history's snapshot points, takes `list` on `/` and is never a share
 * link's: names and hashes of whole-tree versions are the database's inventory.
 */
export function namedVersionRouteHandlers(ctx: NamedVersionRoutesContext): RouteHandler[] {
  const { db, auth } = ctx
  return [
    handleRoute(routes.snapshotsCreate, async (c, { body }) => {
      allow(await accessOf(c, auth), '/', 'create')
      const snapshot = await db.snapshots.create(
        body.name,
        body.metadata === undefined ? {} : { metadata: body.metadata },
      )
      return sendView(c, routes.snapshotsCreate, snapshotView(snapshot), 201)
    }),
    handleRoute(routes.snapshotsList, async (c) => {
      checkInventory(await accessOf(c, auth), '/versions/snapshots')
      const items = await db.snapshots.list()
      return sendView(c, routes.snapshotsList, { items: items.map(snapshotView) }, 200)
    }),
    handleRoute(routes.snapshotsDelete, async (c, { params }) => {
      allow(await accessOf(c, auth), '/', 'delete')
      await db.snapshots.delete(params.name)
      return sendView(c, routes.snapshotsDelete, { deleted: true, name: params.name }, 200)
    }),
    handleRoute(routes.versionsRestore, async (c, { body, query }) => {
      const moved = await db.snapshots.restore(body.name, {
        ...expectHeadOf(query),
        ...actorOf(c),
      })
      return sendView(c, routes.versionsRestore, headMoveView('restored', moved), 200)
    }),
    handleRoute(routes.forksCreate, async (c, { body }) => {
      allow(await accessOf(c, auth), '/', 'create')
      const fork = await db.forks.create(
        body.name,
        body.base === undefined ? {} : { base: body.base },
      )
      return sendView(c, routes.forksCreate, forkView(fork), 201)
    }),
    handleRoute(routes.forksList, async (c) => {
      checkInventory(await accessOf(c, auth), '/versions/forks')
      const items = await db.forks.list()
      return sendView(c, routes.forksList, { items: items.map(forkView) }, 200)
    }),
    handleRoute(routes.forksPromote, async (c, { params, query }) => {
      const moved = await db.forks.promote(params.name, { ...expectHeadOf(query), ...actorOf(c) })
      return sendView(c, routes.forksPromote, headMoveView('promoted', moved), 200)
    }),
    handleRoute(routes.forksAbandon, async (c, { params }) => {
      await db.forks.abandon(params.name)
      return sendView(c, routes.forksAbandon, { deleted: true, name: params.name }, 200)
    }),
    handleRoute(routes.versionsHistory, async (c) => {
      const path = normalizePath(rawFilePath(c, '/versions/history/'))
      const access = await accessOf(c, auth)
      allow(access, path, 'read')
      const history = await db.history(path)
      // Every snapshot is a point of every path's history: naming them is the inventory's.
      const items = seesInventory(access)
        ? history
        : history.filter((i) => i.snapshot === undefined)
      return sendView(c, routes.versionsHistory, { path, items: items.map(historyEntryView) }, 200)
    }),
    headLogRoute(ctx),
    versionChangesRoute(ctx),
    handleRoute(routes.versionsRestorePath, async (c, { body }) => {
      const path = normalizePath(rawFilePath(c, '/versions/restore/'))
      const from =
        body.snapshot !== undefined
          ? { snapshot: body.snapshot }
          : { version: body.version as string }
      const restored = await db.restoreFile(path, from)
      return sendView(c, routes.versionsRestorePath, changeResultView(restored), 200)
    }),
  ]
}
