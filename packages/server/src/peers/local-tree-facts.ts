import { isEngineError } from '@svcdb/engine'
import type { Entry, TreeView } from '@svcdb/engine'
import type { TreeFacts } from './readable-plan'

/** An engine entry as facts to compare with a peer's. */
export function localFacts(entry: Entry): TreeFacts {
  const facts: TreeFacts = {
    path: entry.path,
    type: entry.entryType,
    hash: entry.hash,
    contentType: entry.contentType,
    size: entry.size,
  }
  if (entry.target !== undefined) facts.target = entry.target
  return facts
}

/** The entry at `path` in `view` (a symlink as itself), or undefined when there is none. */
export async function localEntry(view: TreeView, path: string): Promise<TreeFacts | undefined> {
  try {
    return localFacts(await view.stat(path, { follow: false }))
  } catch (err) {
    if (isEngineError(err, 'NOT_FOUND') || isEngineError(err, 'NOT_A_DIRECTORY')) return undefined
    throw err
  }
}

/** `scope` and everything below it in `view`, by path (empty when the scope is absent). */
export async function localScope(view: TreeView, scope: string): Promise<Map<string, TreeFacts>> {
  const out = new Map<string, TreeFacts>()
  const top = await localEntry(view, scope)
  if (top === undefined) return out
  if (scope !== '/') out.set(scope, top)
  if (top.type !== 'directory') return out
  // Depth 0, directory by directory: a listing of depth -1 holds files only.
  const pending = [scope]
  for (let dir = pending.pop(); dir !== undefined; dir = pending.pop()) {
    for await (const entry of view.list(dir)) {
      out.set(entry.path, localFacts(entry))
      if (entry.entryType === 'directory') pending.push(entry.path)
    }
  }
  return out
}
