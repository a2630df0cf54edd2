import { fileUrl } from '../files/file-url'
import type { BrowseTarget } from './versions-route'

/** The fork or snapshot a listing browses, without the directory. */
export type BrowseSource = Pick<BrowseTarget, 'kind' | 'name'>

/** The client's read option naming the source (`{ fork }` or `{ snapshot }`). */
export function sourceSelector(source: BrowseSource): { fork: string } | { snapshot: string } {
  return source.kind === 'fork' ? { fork: source.name } : { snapshot: source.name }
}

/**
 * The URL of file `path` of the source (`GET /files/<path>?fork=<name>`): what a download link
 * points at. The bytes are fetched with the client, which sends the token a link could not.
 */
export function sourceFileUrl(baseUrl: string, source: BrowseSource, path: string): string {
  return `${fileUrl(baseUrl, path)}?${new URLSearchParams(sourceSelector(source)).toString()}`
}

/** How the source is named in headings and labels: `fork draft`, `snapshot v1`. */
export function sourceLabel(source: BrowseSource): string {
  return `${source.kind} ${source.name}`
}
