import { permits } from '@svcdb/auth'
import type { Access, Operation } from '@svcdb/auth'
import { isEngineError, reservedKind } from '@svcdb/engine'
import type { Entry, TreeView } from '@svcdb/engine'
import { ServerError } from '../../errors/server-error'
import { allow } from './file-access'

/** One side of a recursive operation: a path and what the caller must be allowed on and below it. */
export interface SubtreeSide {
  path: string
  operations: readonly Operation[]
}

/**
 * Checks a recursive operation on the entry at `source.path` (of the pinned `view`): the
 * operation on the path itself and, when it is a directory, on every entry below it. A
 * `target` side (the destination of a copy or move) is checked for each entry's new path.
 * An allowed ancestor must never carry along a descendant the caller may not touch (a rule,
 * a group deny or a share that covers only part of the subtree), nor configuration below it
 * (`.svcdb/`) without `configure`. When the caller's rules treat the whole subtree alike, no
 * walk is needed; otherwise every entry is checked, streaming, without recursion.
 */
export async function allowSubtree(
  access: Access,
  view: TreeView,
  source: SubtreeSide,
  target?: SubtreeSide,
): Promise<void> {
  for (const side of target === undefined ? [source] : [source, target])
    for (const operation of side.operations) allow(access, side.path, operation)
  let entry: Entry
  try {
    entry = await view.stat(source.path, { follow: false })
  } catch (err) {
    if (isEngineError(err, 'NOT_FOUND')) return // the operation itself answers the 404
    throw err
  }
  if (entry.entryType !== 'directory') return
  const sides = target === undefined ? [source] : [source, target]
  const verdicts = sides.map((side) => verdictBelow(access, side))
  if (verdicts.every((v) => v === 'allowed')) return
  const denied = (side: SubtreeSide) =>
    new ServerError(
      'FORBIDDEN',
      `${side.operations.join(' and ')} is not permitted on everything below ${side.path}`,
    )
  const refused = verdicts.indexOf('denied')
  if (refused >= 0) {
    // Everything below is denied alike: only an empty directory may go.
    for await (const _ of view.list(source.path, { limit: 1 }))
      throw denied(sides[refused] as SubtreeSide)
    return
  }
  const pending = [source.path]
  for (let dir = pending.pop(); dir !== undefined; dir = pending.pop()) {
    for await (const child of view.list(dir)) {
      if (!allowedAt(access, child.path, source.operations)) throw denied(source)
      if (target !== undefined) {
        const moved = target.path + child.path.slice(source.path.length)
        if (!allowedAt(access, moved, target.operations)) throw denied(target)
      }
      if (child.entryType === 'directory') pending.push(child.path)
    }
  }
}

/**
 * What the caller's rules say of every path below `side.path`: all allowed, all denied, or
 * no single answer (each entry must be checked).
 */
function verdictBelow(access: Access, side: SubtreeSide): 'allowed' | 'denied' | 'walk' {
  const below = access.permissionsBelow(side.path)
  if (below === undefined) return 'walk'
  if (!side.operations.every((operation) => permits(below, operation))) return 'denied'
  // Writes of configuration below (`.svcdb/…`) need `configure` too: without it, look.
  if (!side.operations.some(writes) || permits(below, 'configure')) return 'allowed'
  return 'walk'
}

const writes = (operation: Operation) => operation !== 'read' && operation !== 'list'

/** As `allow`, answering rather than throwing: writing configuration also needs `configure`. */
function allowedAt(access: Access, path: string, operations: readonly Operation[]): boolean {
  if (!operations.every((operation) => access.allows(path, operation))) return false
  if (!operations.some(writes) || reservedKind(path) === undefined) return true
  return access.allows(path, 'configure')
}
