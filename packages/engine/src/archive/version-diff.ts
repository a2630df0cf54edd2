import { EngineError, throwIfAborted } from '../errors'
import type { HashSet } from '../internal/hash-set'
import { sameBytes } from '../internal/hex'
import { entryTotals } from '../objects/tree-objects'
import { asPage } from '../tree/prolly/prolly-read'
import type { ChunkRef, DirEntry, FileObject, Totals, TreeObject } from '../objects/tree-objects'

/** Where the walk reads objects: the database, or an import's staged objects over it. */
export interface ObjectSource {
  load(hash: Uint8Array): Promise<{ object: TreeObject; bytes: Uint8Array }>
}

/** What a walk emits: an object with its stored bytes, or a chunk to send. */
export type WalkItem =
  | { type: 'object'; hash: Uint8Array; bytes: Uint8Array }
  | { type: 'chunk'; hash: Uint8Array; size: number }

interface PageItem {
  kind: 'page'
  hash: Uint8Array
  height: number
  totals: Totals
}
interface EntryItem {
  kind: 'entry'
  entry: DirEntry
}
type Item = PageItem | EntryItem

const removedCount = (totals: Totals): number => totals.files + totals.dirs + totals.links

/** A comparison of two directories in progress: the next item of each side on top. */
interface DiffFrame {
  kind: 'diff'
  next: Item[]
  prev: Item[]
}
/** A subtree of `to` sent whole: what is left to visit, the next on top. */
interface TreeFrame {
  kind: 'tree'
  stack: Item[]
}
type Frame = DiffFrame | TreeFrame

/**
 * Walks what is reachable from version `to` and not from `from` (DESIGN §3.5). Both trees are
 * descended side by side and equal subtree hashes are skipped, so the cost follows the size
 * of the change, not of the versions: prolly-tree pages re-align after an edit, so unchanged
 * pages of a large directory compare equal without being read.
 *
 * With `sent`, every new object and chunk is emitted once (the set remembers what was; an
 * object in it is taken to have its whole closure sent). Without it the walk only counts:
 * `deleted` is the number of entries (recursively) in `from` and not in `to`.
 *
 * Directories are entered by pushing a frame on an explicit stack, never by recursion: a
 * path may be 2,048 levels deep, and nested generators that deep overflowed the call stack
 * (and cut exports short).
 */
export class VersionDiff {
  /** Entries removed relative to `from`, counted as the walk goes. */
  deleted = 0

  constructor(
    private readonly source: ObjectSource,
    private readonly sent: HashSet | undefined,
    private readonly signal?: AbortSignal,
  ) {}

  /** The difference of two directory trees (`from` absent: everything below `to`). */
  async *directory(to: Uint8Array, from: Uint8Array | undefined): AsyncGenerator<WalkItem> {
    const frames: Frame[] = []
    yield* this.openDiff(frames, to, from)
    while (frames.length > 0) {
      throwIfAborted(this.signal, 'the archive walk')
      const frame = frames.at(-1) as Frame
      if (frame.kind === 'tree') yield* this.treeStep(frames, frame)
      else yield* this.diffStep(frames, frame)
    }
  }

  /** Starts comparing two directories: their root pages go on a new frame. */
  private async *openDiff(
    frames: Frame[],
    to: Uint8Array,
    from: Uint8Array | undefined,
  ): AsyncGenerator<WalkItem> {
    if (from !== undefined && sameBytes(to, from)) return
    const frame: DiffFrame = { kind: 'diff', next: [], prev: [] }
    frames.push(frame)
    yield* this.expand(frame.next, { kind: 'page', hash: to, height: -1, totals: zero() }, true)
    if (from !== undefined)
      yield* this.expand(
        frame.prev,
        { kind: 'page', hash: from, height: -1, totals: zero() },
        false,
      )
  }

  /** Starts sending everything below a directory page that was not sent yet. */
  private async *openTree(frames: Frame[], hash: Uint8Array): AsyncGenerator<WalkItem> {
    if (this.sent === undefined || this.sent.has(hash)) return
    const frame: TreeFrame = { kind: 'tree', stack: [] }
    frames.push(frame)
    yield* this.expand(frame.stack, { kind: 'page', hash, height: 0, totals: zero() }, true)
  }

  /** One step of a subtree sent whole; pops the frame when it is done. */
  private async *treeStep(frames: Frame[], frame: TreeFrame): AsyncGenerator<WalkItem> {
    const item = frame.stack.pop()
    if (item === undefined) {
      frames.pop()
      return
    }
    if (item.kind === 'entry') yield* this.entry(frames, item.entry, undefined)
    // Children go on top of this frame's stack: visited before the page's later siblings.
    else if (this.sent?.has(item.hash) === false) yield* this.expand(frame.stack, item, true)
  }

  /** One step of a comparison; pops the frame when both sides are done. */
  private async *diffStep(frames: Frame[], frame: DiffFrame): AsyncGenerator<WalkItem> {
    const { next, prev } = frame
    const a = next.at(-1)
    const b = prev.at(-1)
    if (a === undefined && b === undefined) {
      frames.pop()
      return
    }
    if (a === undefined) {
      prev.pop()
      this.deleted += removedCount(
        b?.kind === 'page' ? b.totals : entryTotals((b as EntryItem).entry),
      )
      return
    }
    if (b === undefined) {
      next.pop()
      if (a.kind === 'page') yield* this.openTree(frames, a.hash)
      else yield* this.entry(frames, a.entry, undefined)
      return
    }
    if (a.kind === 'page' && b.kind === 'page') {
      if (sameBytes(a.hash, b.hash)) {
        next.pop()
        prev.pop()
        return
      }
      const ha = a.height
      const hb = b.height
      if (ha >= hb) yield* this.expand(next, next.pop() as PageItem, true)
      if (hb >= ha) yield* this.expand(prev, prev.pop() as PageItem, false)
      return
    }
    if (a.kind === 'page') {
      yield* this.expand(next, next.pop() as PageItem, true)
      return
    }
    if (b.kind === 'page') {
      yield* this.expand(prev, prev.pop() as PageItem, false)
      return
    }
    const an = a.entry.name
    const bn = b.entry.name
    if (an < bn) {
      next.pop()
      yield* this.entry(frames, a.entry, undefined)
    } else if (an > bn) {
      prev.pop()
      this.deleted += removedCount(entryTotals(b.entry))
    } else {
      next.pop()
      prev.pop()
      yield* this.entry(frames, a.entry, b.entry)
    }
  }

  /** Loads a page and pushes its children (last first, so the first is on top). */
  private async *expand(stack: Item[], page: PageItem, emit: boolean): AsyncGenerator<WalkItem> {
    const { object, bytes } = await this.source.load(page.hash)
    const dir = asPage(object)
    if (emit && this.sent !== undefined && this.sent.add(page.hash)) {
      yield { type: 'object', hash: page.hash, bytes }
    }
    if (dir.type === 'leaf') {
      for (let i = dir.entries.length - 1; i >= 0; i--)
        stack.push({ kind: 'entry', entry: dir.entries[i] as DirEntry })
    } else {
      for (let i = dir.items.length - 1; i >= 0; i--) {
        const item = dir.items[i] as (typeof dir.items)[number]
        stack.push({ kind: 'page', hash: item.hash, height: dir.height - 1, totals: item })
      }
    }
  }

  /**
   * An entry of `to`, new or changed from `base` (same name in `from`). A directory to
   * descend gets a new frame on top of `frames`, visited before the rest of the current one.
   */
  private async *entry(
    frames: Frame[],
    entry: DirEntry,
    base: DirEntry | undefined,
  ): AsyncGenerator<WalkItem> {
    if (base !== undefined) {
      if (base.kind === entry.kind && sameBytes(base.hash, entry.hash)) return
      if (base.kind === 'directory' && entry.kind === 'directory') {
        yield* this.openDiff(frames, entry.hash, base.hash)
        return
      }
      if (base.kind !== entry.kind) {
        this.deleted += removedCount(entryTotals(base))
        base = undefined
      }
    }
    if (this.sent === undefined) return
    if (entry.kind === 'directory') yield* this.openTree(frames, entry.hash)
    else if (entry.kind === 'file') yield* this.file(entry.hash, base?.hash)
    else yield* this.leafObject(entry.hash)
  }

  private async *leafObject(hash: Uint8Array): AsyncGenerator<WalkItem> {
    if (this.sent === undefined || this.sent.has(hash)) return
    const { bytes } = await this.source.load(hash)
    this.sent.add(hash)
    yield { type: 'object', hash, bytes }
  }

  /** A file's chunks (those the base file does not share), its chunk lists and itself. */
  private async *file(
    hash: Uint8Array,
    baseHash: Uint8Array | undefined,
  ): AsyncGenerator<WalkItem> {
    const sent = this.sent
    if (sent === undefined || sent.has(hash)) return
    const { object, bytes } = await this.source.load(hash)
    const file = asFile(object)
    const shared = baseHash === undefined ? undefined : await this.chunkIds(baseHash)
    const emitChunks = function* (chunks: readonly ChunkRef[]): Generator<WalkItem> {
      for (const chunk of chunks) {
        if (shared?.has(toKey(chunk.hash)) === true || !sent.add(chunk.hash)) continue
        yield { type: 'chunk', hash: chunk.hash, size: chunk.size }
      }
    }
    if (file.chunks !== undefined) yield* emitChunks(file.chunks)
    for (const list of file.lists ?? []) {
      throwIfAborted(this.signal, 'the archive walk')
      const loaded = await this.source.load(list.hash)
      if (loaded.object.type !== 'list') throw corrupt(list.hash, 'a chunk list')
      yield* emitChunks(loaded.object.chunks)
      if (sent.add(list.hash)) yield { type: 'object', hash: list.hash, bytes: loaded.bytes }
    }
    sent.add(hash)
    yield { type: 'object', hash, bytes }
  }

  private async chunkIds(fileHash: Uint8Array): Promise<Set<string>> {
    const file = asFile((await this.source.load(fileHash)).object)
    const ids = new Set<string>()
    for (const chunk of file.chunks ?? []) ids.add(toKey(chunk.hash))
    for (const list of file.lists ?? []) {
      const loaded = (await this.source.load(list.hash)).object
      if (loaded.type !== 'list') throw corrupt(list.hash, 'a chunk list')
      for (const chunk of loaded.chunks) ids.add(toKey(chunk.hash))
    }
    return ids
  }
}

function zero(): Totals {
  return { entries: 0, files: 0, dirs: 0, links: 0, bytes: 0 }
}

function toKey(hash: Uint8Array): string {
  return Buffer.from(hash.buffer, hash.byteOffset, hash.length).toString('latin1')
}

function corrupt(hash: Uint8Array, what: string): EngineError {
  return new EngineError(
    'CONTENT_CORRUPT',
    `object ${Buffer.from(hash).toString('hex')} is not ${what}`,
  )
}

function asFile(object: TreeObject): FileObject {
  if (object.type !== 'file')
    throw new EngineError(
      'CONTENT_CORRUPT',
      `expected a file object, found a ${object.type} object`,
    )
  return object
}
