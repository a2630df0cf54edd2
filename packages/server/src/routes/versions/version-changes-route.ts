import type { Access, Auth } from '@svcdb/auth'
import { routes } from '@svcdb/contract'
import type { VersionChangeView } from '@svcdb/contract'
import type { Database, EntryDifference } from '@svcdb/engine'
import { seesInventory } from '../../auth/inventory-access'
import { sendView } from '../../dto/send-view'
import { versionChangeView } from '../../dto/version-views'
import { ServerError } from '../../errors/server-error'
import type { RouteHandler } from '../../routing/route-handler'
import { handleRoute } from '../../routing/route-handler'
import { accessOf } from '../files/file-access'

const HEX_HASH = /^[0-9a-fA-F]{64}$/

/**
 * `GET /versions/changes`: the entries that differ between `from` and `to` (HEAD by default),
 * in the engine's path order, keeping only those the caller may read. A snapshot name is the
 * database's inventory, so only a caller who sees it may name one (404 as for an unknown
 * name otherwise); hashes and `HEAD` are anyone's.
 */
export function versionChangesRoute(ctx: { db: Database; auth: Auth }): RouteHandler {
  const { db, auth } = ctx
  return handleRoute(routes.versionsChanges, async (c, { query }) => {
    const access = await accessOf(c, auth)
    checkSpec(access, query.from)
    if (query.to !== undefined) checkSpec(access, query.to)
    const after = query.cursor === undefined ? undefined : positionOf(query.cursor)
    const items: VersionChangeView[] = []
    let last: EntryDifference | undefined
    let more = false
    const differences = db.diffEntries({
      from: query.from,
      ...(query.to === undefined ? {} : { to: query.to }),
      signal: c.req.raw.signal,
    })
    for await (const difference of differences) {
      if (after !== undefined && comparePositions(positionOf(cursorOf(difference)), after) <= 0)
        continue
      if (!access.allows(difference.path, 'read')) continue
      if (items.length === query.limit) {
        more = true
        break
      }
      items.push(versionChangeView(difference))
      last = difference
    }
    const cursor = more && last !== undefined ? cursorOf(last) : null
    return sendView(c, routes.versionsChanges, { items, cursor }, 200)
  })
}

function checkSpec(access: Access, spec: string): void {
  if (spec === 'HEAD' || HEX_HASH.test(spec) || seesInventory(access)) return
  throw new ServerError('NOT_FOUND', `no snapshot named ${JSON.stringify(spec)}`)
}

/*
 * The cursor is the last entry of the page: `c` or `d` (its change) then its path. A page
 * resumes by walking the diff again from the start and skipping every entry up to and
 * including that one, so a late page costs the walk of the earlier ones; fine for the sizes
 * the CLI asks for, and the cursor stays opaque so a seek can replace the walk later. The
 * change is in it because an entry that changed kind shows twice at one path (deleted, then
 * created), and a page may end between the two.
 */
function cursorOf(difference: EntryDifference): string {
  return `${difference.change === 'deleted' ? 'd' : 'c'}${difference.path}`
}

/** A cursor's place in the diff's order: path segments (a directory's entries by name), then deleted before created. */
function positionOf(cursor: string): { segments: string[]; rank: number } {
  return { segments: cursor.slice(2).split('/'), rank: cursor.startsWith('d') ? 0 : 1 }
}

function comparePositions(
  a: { segments: string[]; rank: number },
  b: { segments: string[]; rank: number },
): number {
  const shared = Math.min(a.segments.length, b.segments.length)
  for (let i = 0; i < shared; i++) {
    const x = a.segments[i] as string
    const y = b.segments[i] as string
    // UTF-16 code unit order, as the engine orders names in a directory.
    if (x !== y) return x < y ? -1 : 1
  }
  if (a.segments.length !== b.segments.length) return a.segments.length - b.segments.length
  return a.rank - b.rank
}
