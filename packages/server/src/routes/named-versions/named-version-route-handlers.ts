import type { Auth } from '@svcdb/auth'
import { routes } from '@svcdb/contract'
import type { Database } from '@svcdb/engine'
import { normalizePath } from '@svcdb/engine'
import { checkInventory, seesInventory } from '../../auth/inventory-access'
import type { RouteHandler } from '../../routing/route-handler'
import { handleRoute } from '../../routing/route-handler'
import { accessOf, allow } from '../files/file-access'
import { rawFilePath } from '../files/raw-path'
import { actorOf, expectHeadOf, headLogRoute } from '../versions/head-log-route'
import { versionChangesRoute } from '../versions/version-changes-route'
import { forkView, historyEntryView, snapshotView } from './named-version-views'

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
      return c.json(snapshotView(snapshot), 201)
    }),
    handleRoute(routes.snapshotsList, async (c) => {
      checkInventory(await accessOf(c, auth), '/versions/snapshots')
      const items = await db.snapshots.list()
      return c.json({ items: items.map(snapshotView) }, 200)
    }),
    handleRoute(routes.snapshotsDelete, async (c, { params }) => {
      allow(await accessOf(c, auth), '/', 'delete')
      await db.snapshots.delete(params.name)
      return c.json({ deleted: true, name: params.name }, 200)
    }),
    handleRoute(routes.versionsRestore, async (c, { body, query }) => {
      const moved = await db.snapshots.restore(body.name, {
        ...expectHeadOf(query),
        ...actorOf(c),
      })
      return c.json({ status: 'restored', head: moved.version, previous: moved.previous }, 200)
    }),
    handleRoute(routes.forksCreate, async (c, { body }) => {
      allow(await accessOf(c, auth), '/', 'create')
      const fork = await db.forks.create(
        body.name,
        body.base === undefined ? {} : { base: body.base },
      )
      return c.json(forkView(fork), 201)
    }),
    handleRoute(routes.forksList, async (c) => {
      checkInventory(await accessOf(c, auth), '/versions/forks')
      const items = await db.forks.list()
      return c.json({ items: items.map(forkView) }, 200)
    }),
    handleRoute(routes.forksPromote, async (c, { params, query }) => {
      const moved = await db.forks.promote(params.name, { ...expectHeadOf(query), ...actorOf(c) })
      return c.json({ status: 'promoted', head: moved.version, previous: moved.previous }, 200)
    }),
    handleRoute(routes.forksAbandon, async (c, { params }) => {
      await db.forks.abandon(params.name)
      return c.json({ deleted: true, name: params.name }, 200)
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
      return c.json({ path, items: items.map(historyEntryView) }, 200)
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
      return c.json(
        { path: restored.path, entry_type: restored.entryType, version: restored.version },
        200,
      )
    }),
  ]
}
