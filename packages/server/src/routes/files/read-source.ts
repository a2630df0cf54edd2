import type { TreeView, Workspace } from '@svcdb/engine'

/** What `GET /files/{path}` reads: one version, pinned for the whole answer. */
export type ReadSource = TreeView | Workspace

/** Query of a read, validated. */
export interface ReadQuery {
  limit: number
  offset: number
  after?: string | undefined
  depth: number
  glob?: string | undefined
  nofollow: boolean
  stat: boolean
}
