import { isClientError } from '@svcdb/client'
import type { EntryView } from '@svcdb/contract'

/** Where a symlink leads: a directory to list, a file to preview, or nowhere. */
export type LinkDestination =
  | { kind: 'directory'; path: string }
  | { kind: 'file'; entry: EntryView }
  | { kind: 'missing'; message: string }

/**
 * Follows the symlink `link` with `stat` (the client's, which follows links, up to the
 * server's 32 hops). A target that is not there, or one the caller may not see (which the
 * server answers alike), is `missing`; other failures are thrown.
 */
export async function followLink(
  stat: (path: string) => Promise<EntryView>,
  link: EntryView,
): Promise<LinkDestination> {
  try {
    const target = await stat(link.path)
    return target.entry_type === 'directory'
      ? { kind: 'directory', path: target.path }
      : { kind: 'file', entry: target }
  } catch (err) {
    if (!isClientError(err, 'NOT_FOUND')) throw err
    return {
      kind: 'missing',
      message: `${link.name} points to ${link.target ?? 'a path'}, which is not there.`,
    }
  }
}
