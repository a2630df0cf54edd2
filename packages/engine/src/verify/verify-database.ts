import { isEngineError, throwIfAborted } from '../errors'
import { readVersionLog } from '../state/version-log'
import { HashSet } from '../internal/hash-set'
import { parseHash, sameBytes, toHex } from '../internal/hex'
import type { ChunkRef, DirEntry, TreeObject } from '../objects/tree-objects'
import type { ChunkStore } from '../chunks/chunk-store'
import type { MetaStore } from '../meta/meta-store'
import type { ObjectStore } from '../objects/object-store'
import type { DatabaseState } from '../state/database-state'

/** What verification reads. */
export interface VerifyServices {
  assertOpen(): void
  readonly chunks: ChunkStore
  readonly meta: MetaStore
  readonly objects: ObjectStore
  readonly state: DatabaseState
}

/** Options of `db.verify()`. */
export interface VerifyOptions {
  signal?: AbortSignal
  onProgress?(progress: { versions: number; objects: number; chunks: number }): void
}

/** A missing or damaged object or chunk, and where it is used. */
export interface VerifyProblem {
  kind: 'object' | 'chunk'
  /** Hex id. */
  hash: string
  reason: string
  /** Paths that reach it, in the first version found (up to 10; shared subtrees count once). */
  paths: string[]
  /** Hex hashes of versions it was found in (up to 10). */
  versions: string[]
}

/** What `verify` found. */
export interface VerifyResult {
  ok: boolean
  /** Objects and chunks read and re-hashed. */
  checked: number
  /** Versions walked: every ref and the version log window. */
  versions: number
  missing: VerifyProblem[]
  corrupt: VerifyProblem[]
  durationMs: number
}

const MAX_PATHS = 10
/** Chunk reads in flight while verifying a file. */
const READ_WINDOW = 8
const CONTENT_PREFIX = new TextEncoder().encode('content:')

/**
 * Walks every version (refs and the version log) and every stored chunk, re-reading and
 * re-hashing each object and chunk once (DESIGN §3.6). Nothing is repaired; problems are
 * reported with the paths and versions that reach them.
 */
export async function verifyDatabase(
  core: VerifyServices,
  options: VerifyOptions = {},
): Promise<VerifyResult> {
  core.assertOpen()
  const started = performance.now()
  const run = new Verification(core, options)
  const roots = new Set<string>()
  for (const root of core.state.refs.values()) roots.add(toHex(root))
  for await (const record of readVersionLog(core.meta)) {
    if (record.from !== null) roots.add(record.from)
    if (record.to !== null) roots.add(record.to)
  }
  for (const root of roots) await run.version(root)
  await run.unreferencedChunks()
  const missing = [...run.problems.values()]
    .filter((p) => p.missing)
    .map(({ missing: _, ...p }) => p)
  const corrupt = [...run.problems.values()]
    .filter((p) => !p.missing)
    .map(({ missing: _, ...p }) => p)
  return {
    ok: missing.length === 0 && corrupt.length === 0,
    checked: run.objects + run.chunks,
    versions: roots.size,
    missing,
    corrupt,
    durationMs: Math.round(performance.now() - started),
  }
}

/** A directory page or a file/symlink entry still to check. */
type Visit =
  { kind: 'page'; hash: Uint8Array; path: string } | { kind: 'file'; entry: DirEntry; path: string }

class Verification {
  readonly problems = new Map<string, VerifyProblem & { missing: boolean }>()
  private readonly seen = new HashSet(1 << 16)
  objects = 0
  chunks = 0
  private versions = 0

  constructor(
    private readonly core: VerifyServices,
    private readonly options: VerifyOptions,
  ) {}

  /**
   * Walks one version depth first. Directories go on an explicit stack, not into recursion:
   * a path may be 2,048 levels deep.
   */
  async version(root: string): Promise<void> {
    this.versions++
    const stack: Visit[] = [{ kind: 'page', hash: parseHash(root), path: '/' }]
    for (let visit = stack.pop(); visit !== undefined; visit = stack.pop()) {
      if (visit.kind === 'file') await this.entry(visit.entry, visit.path, root)
      else await this.page(visit.hash, visit.path, root, stack)
    }
    this.progress()
  }

  /** Every stored chunk no version reached, so damage in garbage is found too. */
  async unreferencedChunks(): Promise<void> {
    for await (const entry of this.core.chunks.entries()) {
      if (this.seen.has(entry.hash)) continue
      this.seen.add(entry.hash)
      await this.chunk(entry.hash, undefined, undefined, undefined)
    }
  }

  /** Checks a directory page and pushes what it holds, the first on top. */
  private async page(
    hash: Uint8Array,
    path: string,
    version: string,
    stack: Visit[],
  ): Promise<void> {
    const object = await this.object(hash, path, version)
    if (object === undefined) return
    if (object.type === 'node') {
      for (let i = object.items.length - 1; i >= 0; i--)
        stack.push({ kind: 'page', hash: (object.items[i] as { hash: Uint8Array }).hash, path })
    } else if (object.type === 'leaf') {
      for (let i = object.entries.length - 1; i >= 0; i--) {
        const entry = object.entries[i] as DirEntry
        const child = join(path, entry.name)
        stack.push(
          entry.kind === 'directory'
            ? { kind: 'page', hash: entry.hash, path: child }
            : { kind: 'file', entry, path: child },
        )
      }
    } else {
      this.report(
        'object',
        hash,
        `a ${object.type} object where a directory page belongs`,
        false,
        path,
        version,
      )
    }
  }

  /** Checks a file or symlink entry. */
  private async entry(entry: DirEntry, path: string, version: string): Promise<void> {
    const object = await this.object(entry.hash, path, version)
    if (object === undefined || object.type === 'link') return
    if (object.type !== 'file') {
      this.report(
        'object',
        entry.hash,
        `a ${object.type} object where a file belongs`,
        false,
        path,
        version,
      )
      return
    }
    const refs: ChunkRef[] = [...(object.chunks ?? [])]
    for (const list of object.lists ?? []) {
      const loaded = await this.object(list.hash, path, version, true)
      if (loaded?.type === 'list') refs.push(...loaded.chunks)
    }
    const ids = this.core.objects.hasher.createStream()
    ids.update(CONTENT_PREFIX)
    for (const ref of refs) ids.update(ref.hash)
    if (!sameBytes(ids.digest(), object.contentHash)) {
      this.report(
        'object',
        entry.hash,
        'content hash does not match the chunk ids',
        false,
        path,
        version,
      )
    }
    const pending: Promise<void>[] = []
    for (const ref of refs) {
      if (!this.seen.add(ref.hash)) {
        this.addPath(ref.hash, path, version)
        continue
      }
      pending.push(this.chunk(ref.hash, ref.size, path, version))
      if (pending.length >= READ_WINDOW) await pending.shift()
    }
    await Promise.all(pending)
  }

  /** Loads and re-hashes an object once; `undefined` when it is missing, damaged or seen. */
  private async object(
    hash: Uint8Array,
    path: string,
    version: string,
    always = false,
  ): Promise<TreeObject | undefined> {
    throwIfAborted(this.options.signal, 'verify')
    if (!this.seen.add(hash)) {
      this.addPath(hash, path, version)
      return always ? this.core.objects.get(hash).catch(() => undefined) : undefined
    }
    this.objects++
    if (this.objects % 1000 === 0) this.progress()
    try {
      return (await this.core.objects.load(hash)).object
    } catch (err) {
      if (isEngineError(err, 'NOT_FOUND'))
        this.report('object', hash, 'not stored', true, path, version)
      else if (isEngineError(err, 'CONTENT_CORRUPT'))
        this.report('object', hash, err.message, false, path, version)
      else throw err
      return undefined
    }
  }

  private async chunk(
    hash: Uint8Array,
    size: number | undefined,
    path: string | undefined,
    version: string | undefined,
  ): Promise<void> {
    this.chunks++
    let bytes: Uint8Array
    try {
      bytes = await this.core.chunks.read(
        hash,
        size === undefined ? { bypassCache: true } : { size, bypassCache: true },
      )
    } catch (err) {
      if (isEngineError(err, 'NOT_FOUND'))
        this.report('chunk', hash, 'not stored', true, path, version)
      else if (isEngineError(err, 'CONTENT_CORRUPT'))
        this.report('chunk', hash, err.message, false, path, version)
      else throw err
      return
    }
    if (!sameBytes(this.core.objects.hasher.hashDomain('chunk', bytes), hash))
      this.report('chunk', hash, 'bytes do not match the chunk id', false, path, version)
    else if (size !== undefined && size !== bytes.length)
      this.report(
        'chunk',
        hash,
        `holds ${bytes.length} bytes, the file expects ${size}`,
        false,
        path,
        version,
      )
  }

  private report(
    kind: VerifyProblem['kind'],
    hash: Uint8Array,
    reason: string,
    missing: boolean,
    path: string | undefined,
    version: string | undefined,
  ): void {
    const key = toHex(hash)
    if (!this.problems.has(key))
      this.problems.set(key, { kind, hash: key, reason, paths: [], versions: [], missing })
    this.addPath(hash, path, version)
  }

  private addPath(hash: Uint8Array, path: string | undefined, version: string | undefined): void {
    const problem = this.problems.get(toHex(hash))
    if (problem === undefined) return
    if (path !== undefined && problem.paths.length < MAX_PATHS && !problem.paths.includes(path))
      problem.paths.push(path)
    if (
      version !== undefined &&
      problem.versions.length < MAX_PATHS &&
      !problem.versions.includes(version)
    )
      problem.versions.push(version)
  }

  private progress(): void {
    this.options.onProgress?.({
      versions: this.versions,
      objects: this.objects,
      chunks: this.chunks,
    })
  }
}

function join(dir: string, name: string): string {
  return dir === '/' ? `/${name}` : `${dir}/${name}`
}
