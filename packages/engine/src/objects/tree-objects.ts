/** What an entry of a directory is. */
export type EntryKind = 'file' | 'directory' | 'symlink'

/** One chunk of a file's content: its id and raw length. */
export interface ChunkRef {
  hash: Uint8Array
  size: number
}

/** A reference to an indirect chunk-list object, for files with many chunks. */
export interface ChunkListRef {
  hash: Uint8Array
  chunks: number
  bytes: number
}

/** A file: metadata and the list of its chunks, inline or through indirect lists. */
export interface FileObject {
  type: 'file'
  size: number
  contentType: string
  /** Merkle content hash: hash of `content:` followed by the chunk ids, in order (see `ingest`). */
  contentHash: Uint8Array
  createdAt: number
  updatedAt: number
  /** User metadata as JSON text; `''` when none. */
  metadata: string
  /** Exactly one of `chunks` and `lists` is present. */
  chunks?: ChunkRef[]
  lists?: ChunkListRef[]
}

/** An indirect list of chunks (a slice of a large file's chunk list). */
export interface ChunkListObject {
  type: 'list'
  chunks: ChunkRef[]
}

/** A symbolic link. */
export interface LinkObject {
  type: 'link'
  target: string
  createdAt: number
  updatedAt: number
}

/**
 * An entry of a directory. `size` is the file size, or for a directory the total bytes of the
 * files below it. `files`, `dirs` and `links` count what lies below a directory (0 otherwise).
 */
export interface DirEntry {
  name: string
  kind: EntryKind
  hash: Uint8Array
  size: number
  createdAt: number
  updatedAt: number
  files: number
  dirs: number
  links: number
}

/** A leaf page of a directory's prolly tree: entries sorted by name. */
export interface DirLeaf {
  type: 'leaf'
  entries: DirEntry[]
}

/** Totals of a directory subtree, kept on every internal item so stats are O(1). */
export interface Totals {
  /** Direct entries in the subtree of the page (not recursive). */
  entries: number
  files: number
  dirs: number
  links: number
  bytes: number
}

/** One child of an internal page: the last name below it, its hash and totals. */
export interface NodeItem extends Totals {
  key: string
  hash: Uint8Array
}

/** An internal page of a directory's prolly tree, `height` ≥ 1 above the leaves. */
export interface DirNode {
  type: 'node'
  height: number
  items: NodeItem[]
}

/** A directory page, leaf or internal. The root page's hash is the directory's hash. */
export type DirPage = DirLeaf | DirNode

/** Any decoded tree object. */
export type TreeObject = FileObject | ChunkListObject | LinkObject | DirPage

/** Totals a directory entry contributes to its parent. */
export function entryTotals(entry: DirEntry): Totals {
  switch (entry.kind) {
    case 'file':
      return { entries: 1, files: 1, dirs: 0, links: 0, bytes: entry.size }
    case 'symlink':
      return { entries: 1, files: 0, dirs: 0, links: 1, bytes: 0 }
    case 'directory':
      return {
        entries: 1,
        files: entry.files,
        dirs: entry.dirs + 1,
        links: entry.links,
        bytes: entry.size,
      }
  }
}

/** Totals of a whole page. */
export function pageTotals(page: DirPage): Totals {
  const sum: Totals = { entries: 0, files: 0, dirs: 0, links: 0, bytes: 0 }
  const items = page.type === 'leaf' ? page.entries.map(entryTotals) : page.items
  for (const t of items) {
    sum.entries += t.entries
    sum.files += t.files
    sum.dirs += t.dirs
    sum.links += t.links
    sum.bytes += t.bytes
  }
  return sum
}
