import type { ChunkStore } from '../chunks/chunk-store'
import { isEngineError, throwIfAborted } from '../errors'
import type { Lease } from '../commit/gc-fence'
import type { Hasher } from '../hashing/hasher'
import { sameBytes, toHex } from '../internal/hex'
import type { ObjectStore } from '../objects/object-store'
import { pageTotals } from '../objects/tree-objects'
import type {
  ChunkRef,
  DirEntry,
  DirPage,
  FileObject,
  Totals,
  TreeObject,
} from '../objects/tree-objects'
import { MAX_PATH_BYTES, normalizePath } from '../path/db-path'
import { invalidArchive } from './archive-format'

/** An object read from an archive, its id already verified. */
export interface StagedObject {
  hash: Uint8Array
  bytes: Uint8Array
  object: TreeObject
}

/** What the archive brings, by kind. */
export interface ImportCounts {
  files: number
  directories: number
  symlinks: number
}

interface KeyRange {
  first: string
  last: string
  height: number
}

const CONTENT_PREFIX = new TextEncoder().encode('content:')
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/

/**
 * Checks that an archive's objects form valid trees before anything is published
 * (DESIGN §3.5): every reference resolves (to the archive or the database), kinds, sizes and
 * subtree totals agree, names are safe and sorted, directory pages cover ordered key ranges,
 * chunk lists add up and content hashes match their chunk ids. Objects already in the
 * database were checked when they were written; references into it are pinned against GC
 * through `lease` before they are looked up.
 */
export class ImportChecker {
  private readonly resolved = new Map<string, Promise<TreeObject>>()
  private readonly ranges = new Map<string, Promise<KeyRange | undefined>>()
  private readonly directoryRoots = new Set<string>()

  constructor(
    private readonly staged: ReadonlyMap<string, StagedObject>,
    private readonly stagedChunks: ReadonlyMap<string, number>,
    /** Archive chunks already committed on their own: checked as database chunks are. */
    private readonly committedEarly: ReadonlySet<string>,
    private readonly objects: ObjectStore,
    private readonly chunks: ChunkStore,
    private readonly hasher: Hasher,
    private readonly lease: Lease,
    private readonly signal?: AbortSignal,
  ) {}

  /** Checks every archive object and the target root; counts what the archive brings. */
  async check(target: Uint8Array): Promise<ImportCounts> {
    const root = await this.resolve(target, 'the target version')
    if (root.type !== 'leaf' && root.type !== 'node')
      throw invalidArchive(`the target ${toHex(target)} is not a directory`)
    await this.range(target, root)
    this.directoryRoots.add(toHex(target))
    const counts: ImportCounts = { files: 0, directories: 0, symlinks: 0 }
    let n = 0
    for (const { hash, object } of this.staged.values()) {
      if (++n % 256 === 0) throwIfAborted(this.signal, 'the import')
      await this.checkObject(hash, object)
      if (object.type === 'file') counts.files++
      else if (object.type === 'link') counts.symlinks++
    }
    for (const key of this.directoryRoots) if (this.staged.has(key)) counts.directories++
    return counts
  }

  private async checkObject(hash: Uint8Array, object: TreeObject): Promise<void> {
    const where = `object ${toHex(hash)}`
    switch (object.type) {
      case 'file':
        return this.checkFile(where, object)
      case 'list':
        for (const chunk of object.chunks) await this.checkChunk(where, chunk)
        return
      case 'link':
        if (
          object.target === '' ||
          CONTROL.test(object.target) ||
          Buffer.byteLength(object.target) > MAX_PATH_BYTES
        )
          throw invalidArchive(
            `${where}: invalid symlink target ${JSON.stringify(object.target.slice(0, 80))}`,
          )
        return
      case 'leaf':
        return this.checkLeaf(where, object.entries)
      case 'node':
        await this.range(hash, object)
        return
    }
  }

  private async checkFile(where: string, file: FileObject): Promise<void> {
    if (file.metadata !== '') {
      let parsed: unknown
      try {
        parsed = JSON.parse(file.metadata)
      } catch {
        parsed = undefined
      }
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
        throw invalidArchive(`${where}: metadata is not a JSON object`)
    }
    const ids = this.hasher.createStream()
    ids.update(CONTENT_PREFIX)
    let size = 0
    const add = async (chunk: ChunkRef) => {
      await this.checkChunk(where, chunk)
      ids.update(chunk.hash)
      size += chunk.size
    }
    for (const chunk of file.chunks ?? []) await add(chunk)
    for (const ref of file.lists ?? []) {
      const list = await this.resolve(ref.hash, `${where}'s chunk list`)
      if (list.type !== 'list')
        throw invalidArchive(`${where}: chunk list ${toHex(ref.hash)} is a ${list.type}`)
      const bytes = list.chunks.reduce((sum, c) => sum + c.size, 0)
      if (list.chunks.length !== ref.chunks || bytes !== ref.bytes)
        throw invalidArchive(
          `${where}: chunk list ${toHex(ref.hash)} does not hold what the file says`,
        )
      for (const chunk of list.chunks) await add(chunk)
    }
    if (size !== file.size)
      throw invalidArchive(`${where}: size ${file.size} but its chunks hold ${size} bytes`)
    if (!sameBytes(ids.digest(), file.contentHash))
      throw invalidArchive(`${where}: content hash does not match its chunk ids`)
  }

  private async checkChunk(where: string, chunk: ChunkRef): Promise<void> {
    const key = toHex(chunk.hash)
    const size = this.stagedChunks.get(key)
    if (size !== undefined) {
      if (size !== chunk.size)
        throw invalidArchive(`${where}: chunk ${key} is ${size} bytes, not ${chunk.size}`)
      if (!this.committedEarly.has(key)) return
    }
    const sweeping = this.lease.add(chunk.hash)
    if (sweeping !== undefined) await sweeping
    // Committed only: a chunk another writer staged but has not committed may never be.
    // The stored size, not the archive's claim, must match the file's chunk list.
    const stored = await this.chunks.rawSize(chunk.hash, { committed: true })
    if (stored === undefined)
      throw invalidArchive(`${where}: chunk ${key} is neither in the archive nor in the database`)
    if (stored !== chunk.size)
      throw invalidArchive(
        `${where}: chunk ${key} is stored with ${stored} bytes, not ${chunk.size}`,
      )
  }

  private async checkLeaf(where: string, entries: readonly DirEntry[]): Promise<void> {
    let previous: string | undefined
    for (const entry of entries) {
      checkName(where, entry.name)
      if (previous !== undefined && !(previous < entry.name))
        throw invalidArchive(
          `${where}: entries are not in strict name order at ${JSON.stringify(entry.name)}`,
        )
      previous = entry.name
      const child = await this.resolve(entry.hash, `entry ${JSON.stringify(entry.name)}`)
      const bad = (why: string) =>
        invalidArchive(`${where}: entry ${JSON.stringify(entry.name)} ${why}`)
      if (entry.kind === 'file') {
        if (child.type !== 'file') throw bad(`is a file pointing at a ${child.type}`)
        if (child.size !== entry.size || entry.files + entry.dirs + entry.links !== 0)
          throw bad('does not match its file')
      } else if (entry.kind === 'symlink') {
        if (child.type !== 'link') throw bad(`is a symlink pointing at a ${child.type}`)
        if (entry.size + entry.files + entry.dirs + entry.links !== 0)
          throw bad('has sizes or counts')
      } else {
        if (child.type !== 'leaf' && child.type !== 'node')
          throw bad(`is a directory pointing at a ${child.type}`)
        const totals = pageTotals(child)
        if (
          totals.files !== entry.files ||
          totals.dirs !== entry.dirs ||
          totals.links !== entry.links ||
          totals.bytes !== entry.size
        )
          throw bad('does not match the totals of its directory')
        await this.range(entry.hash, child)
        this.directoryRoots.add(toHex(entry.hash))
      }
    }
  }

  /** The key range and height of a page, checking an internal page's children on the way. */
  private range(hash: Uint8Array, page: DirPage): Promise<KeyRange | undefined> {
    const key = toHex(hash)
    let found = this.ranges.get(key)
    if (found === undefined) {
      found = this.computeRange(hash, page)
      this.ranges.set(key, found)
    }
    return found
  }

  private async computeRange(hash: Uint8Array, page: DirPage): Promise<KeyRange | undefined> {
    if (page.type === 'leaf') {
      const first = page.entries[0]
      const last = page.entries.at(-1)
      return first === undefined || last === undefined
        ? undefined
        : { first: first.name, last: last.name, height: 0 }
    }
    const where = `page ${toHex(hash)}`
    if (page.items.length === 0 || page.height < 1)
      throw invalidArchive(`${where}: an internal page must have children and height ≥ 1`)
    let first: string | undefined
    let previous: string | undefined
    for (const item of page.items) {
      const child = await this.resolve(item.hash, `a child of ${where}`)
      if (child.type !== 'leaf' && child.type !== 'node')
        throw invalidArchive(`${where}: a child is a ${child.type}`)
      const range = await this.range(item.hash, child)
      if (range === undefined) throw invalidArchive(`${where}: a child page is empty`)
      if (range.height !== page.height - 1)
        throw invalidArchive(
          `${where}: a child has height ${range.height}, expected ${page.height - 1}`,
        )
      if (range.last !== item.key || (previous !== undefined && !(previous < range.first)))
        throw invalidArchive(`${where}: child key ranges are out of order`)
      if (!sameTotals(pageTotals(child), item))
        throw invalidArchive(`${where}: a child's totals are wrong`)
      first ??= range.first
      previous = range.last
    }
    return { first: first as string, last: previous as string, height: page.height }
  }

  private resolve(hash: Uint8Array, what: string): Promise<TreeObject> {
    const key = toHex(hash)
    const staged = this.staged.get(key)
    if (staged !== undefined) return Promise.resolve(staged.object)
    let found = this.resolved.get(key)
    if (found === undefined) {
      found = this.fromDatabase(hash, what)
      this.resolved.set(key, found)
    }
    return found
  }

  private async fromDatabase(hash: Uint8Array, what: string): Promise<TreeObject> {
    const sweeping = this.lease.add(hash)
    if (sweeping !== undefined) await sweeping
    try {
      return await this.objects.get(hash)
    } catch (err) {
      if (isEngineError(err, 'NOT_FOUND'))
        throw invalidArchive(
          `${what} (${toHex(hash)}) is neither in the archive nor in the database`,
        )
      throw err
    }
  }
}

function sameTotals(a: Totals, b: Totals): boolean {
  return (
    a.entries === b.entries &&
    a.files === b.files &&
    a.dirs === b.dirs &&
    a.links === b.links &&
    a.bytes === b.bytes
  )
}

function checkName(where: string, name: string): void {
  let ok = name !== '' && !name.includes('/')
  if (ok) {
    try {
      ok = normalizePath(`/${name}`) === `/${name}`
    } catch {
      ok = false
    }
  }
  if (!ok) throw invalidArchive(`${where}: unsafe entry name ${JSON.stringify(name.slice(0, 80))}`)
}
