import type { Access } from '@svcdb/auth'
import type { Entry } from '@svcdb/engine'
import { entryView } from '../../dto/entry-views'
import type { ListingView } from '../../dto/entry-views'
import type { ReadQuery, ReadSource } from './read-source'

const NO_PERMISSIONS = '--------'

/**
 * One page of a directory: `offset` or `after` (a name, or a relative path with depth -1),
 * `limit` items, `total` of every entry of the directory the caller may see (whatever the
 * page), and `next` when more remain after this page. Entries a scoped caller may not see are
 * left out, the others carry their permissions. When the caller's rules treat everything
 * below alike and there is no glob, the total comes from the tree's counts and the walk stops
 * at the end of the page: a page costs its size, not the directory's.
 */
export async function listDirectory(
  source: ReadSource,
  access: Access,
  dir: Entry,
  query: ReadQuery,
): Promise<ListingView> {
  const depth = query.depth as 0 | -1
  const uniform = query.glob === undefined ? access.permissionsBelow(dir.path) : undefined
  const page: ListingView = { items: [], total: 0, limit: query.limit, offset: query.offset }
  if (uniform === NO_PERMISSIONS) return page
  const options = {
    depth,
    ...(query.glob === undefined ? {} : { glob: query.glob }),
    ...(query.after === undefined ? {} : { after: query.after }),
  }
  const base = dir.path === '/' ? '/' : `${dir.path}/`
  let seen = 0
  let skipped = 0
  let more = false
  let last: string | undefined
  for await (const entry of source.list(dir.path, options)) {
    const permissions = uniform ?? access.permissions(entry.path)
    if (permissions === NO_PERMISSIONS) continue
    seen++
    if (skipped < query.offset) {
      skipped++
    } else if (page.items.length < query.limit) {
      page.items.push(entryView(entry, access.scoped ? permissions : undefined))
      last = entry.path.slice(base.length)
    } else {
      more = true
      if (uniform !== undefined) break
    }
  }
  page.total =
    uniform !== undefined
      ? await source.count(dir.path, { depth })
      : query.after === undefined
        ? seen
        : await countVisible(source, access, dir.path, depth, query.glob)
  if (more && last !== undefined) page.next = last
  return page
}

/** Every entry of a listing the caller may see, from the start (the slow path). */
async function countVisible(
  source: ReadSource,
  access: Access,
  dir: string,
  depth: 0 | -1,
  glob: string | undefined,
): Promise<number> {
  let count = 0
  for await (const entry of source.list(dir, { depth, ...(glob === undefined ? {} : { glob }) }))
    if (access.permissions(entry.path) !== NO_PERMISSIONS) count++
  return count
}
