import type { Tally } from '../state/ref-move'
import { EngineError, isEngineError } from '../errors'
import type { Lease } from '../commit/gc-fence'
import type { HashAlgorithm } from '../hashing/hasher'
import { crashPoint } from '../internal/crash-point'
import { sameBytes, toHex } from '../internal/hex'
import type { MetaOp } from '../meta/meta-store'
import type { TreeObject } from '../objects/tree-objects'
import { assertExpectedHead, checkHeadMoveOptions } from '../versions/head-log'
import { HEAD } from '../meta/keys'
import { readArchive } from './archive-codec'
import type { ArchiveHeader } from './archive-codec'
import { invalidArchive } from './archive-format'
import { ImportChecker } from './import-check'
import { assertForkFree, checkImportTarget, importRefUpdates } from './import-refs'
import type { StagedObject } from './import-check'
import { VersionDiff } from './version-diff'
import type { ChunkStore } from '../chunks/chunk-store'
import type { GcFence } from '../commit/gc-fence'
import type { WritePath } from '../commit/write-path'
import type { ObjectStore } from '../objects/object-store'
import type { DatabaseState } from '../state/database-state'
import type { FormatRecord } from '../state/format-record'

/** What importing an archive needs. */
export interface ImportServices {
  assertOpen(): void
  readonly chunks: ChunkStore
  readonly fence: GcFence
  readonly format: FormatRecord
  readonly objects: ObjectStore
  readonly state: DatabaseState
  readonly writes: WritePath
}

/** Options of `importArchive`. */
export interface ImportOptions {
  /** Apply a patch even when HEAD is not its base. */
  force?: boolean
  /**
   * Make the imported version HEAD (recorded in the HEAD log, cause `import`). Otherwise it
   * is kept (safe from GC) for a later promote.
   */
  promote?: boolean
  /** With `promote`: refuse with `CONFLICT` unless HEAD is this hex hash when the import commits. */
  expectHead?: string
  /** With `promote`: who imports, recorded as `by` in the HEAD log. */
  by?: string
  /**
   * Create fork `fork` at the imported version instead of keeping it for a promote, exactly
   * as `db.forks.create` does (`CONFLICT` if it exists; `INVALID_INPUT` with `promote`).
   */
  fork?: string
  /**
   * Also move ref `peer/<pin>` (see `db.peerPins`) to the imported version, in the same
   * commit. The pin keeps the version from GC, so no `import/` ref is made for it.
   */
  pin?: string
  /**
   * Commit the chunks staged so far whenever this many new bytes are waiting, instead of only
   * with the version: an import cut short (a crash, an abort) then leaves them stored, still
   * unreferenced (GC collects them unless a later import uses them), and a receiver resuming
   * it names them in `skipChunks` rather than receiving them again. Off by default.
   */
  commitChunksEvery?: number
  /** Most archive bytes accepted (`TOO_LARGE` beyond); unlimited by default. */
  maxBytes?: number
  /** Most object and chunk frames accepted (`TOO_LARGE` beyond); default 10,000,000. */
  maxEntries?: number
  signal?: AbortSignal
  onProgress?(progress: { bytes: number; frames: number }): void
}

/** What an import did (spec "Import result"). */
export interface ImportResult {
  status: 'imported'
  backupType: 'export' | 'patch'
  /** Files, directories and symlinks the archive brought. */
  entriesImported: number
  /** Chunks in the archive. */
  chunksImported: number
  filesImported: number
  directoriesImported: number
  /** Entries of the base (the patch's base, else HEAD) that the imported version no longer has. */
  deletionsApplied: number
  /** Hex hash of the imported version. */
  versionHash: string
  headPromoted: boolean
}

const NO_BYTES = new Uint8Array(0)

/** Chunk stores written concurrently while reading, as for uploads. */
const STAGE_WINDOW = 8

/**
 * Imports an archive (DESIGN §3.5), trusting nothing in it: frames are re-hashed as they
 * are read, chunks are staged (never committed) as they arrive, objects are held in memory,
 * and only once the end frame is verified and every tree checked does one group commit
 * publish it all with the ref move. Any defect throws `INVALID_ARCHIVE` (limits
 * `TOO_LARGE`, a patch on another HEAD `BASE_MISMATCH`) and leaves the database as it was.
 */
export async function importArchive(
  core: ImportServices,
  source: AsyncIterable<Uint8Array>,
  options: ImportOptions = {},
): Promise<ImportResult> {
  core.assertOpen()
  const expectHead = checkHeadMoveOptions({
    ...(options.expectHead === undefined ? {} : { expectHead: options.expectHead }),
    ...(options.by === undefined ? {} : { by: options.by }),
  })
  checkImportTarget(options)
  const every = options.commitChunksEvery
  if (every !== undefined && !(Number.isSafeInteger(every) && every > 0))
    throw new EngineError(
      'INVALID_INPUT',
      `commitChunksEvery must be a positive integer, got ${every}`,
    )
  const algorithm = core.format.hashAlgorithm
  const archive = await readArchive(source, {
    hasherFor: async (alg: HashAlgorithm) => {
      if (alg !== algorithm)
        throw invalidArchive(`the archive hashes with ${alg}, this database with ${algorithm}`)
      return core.objects.hasher
    },
    maxBytes: options.maxBytes ?? Number.POSITIVE_INFINITY,
    maxFrames: options.maxEntries ?? 10_000_000,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  })
  const { header } = archive
  try {
    checkBase(core, header, options.force === true)
    // Checked again inside the commit; failing here spares reading a doomed archive.
    if (options.promote === true) assertExpectedHead(core.state.rootOf(HEAD), expectHead)
    assertForkFree(options, (ref) => core.state.refs.get(ref))
  } catch (err) {
    await archive.frames.return(undefined as never)
    throw err
  }
  await core.writes.enter()
  const lease = core.fence.lease()
  try {
    const staged = await stageFrames(core, archive.frames, lease, options)
    crashPoint('mid-import')
    const checker = new ImportChecker(
      staged.objects,
      staged.chunkSizes,
      staged.committedEarly,
      core.objects,
      core.chunks,
      core.objects.hasher,
      lease,
      options.signal,
    )
    const counts = await checker.check(header.target)
    const deletions = await countDeletions(core, staged.objects, header)
    return await core.writes.submit({
      async apply({ rootOf, now }) {
        checkBase(core, header, options.force === true, rootOf(HEAD))
        const version = toHex(header.target)
        const promote = options.promote === true
        // Throws (nothing applied) on an `expectHead` mismatch or a taken fork name.
        const { refs, changes } = importRefUpdates(options, header.target, {
          rootOf,
          now,
          expectHead,
        })
        const ops: MetaOp[] = staged.chunkOps
        for (const o of staged.objects.values())
          ops.push({ type: 'put', space: 'obj', key: o.hash, value: o.bytes })
        return {
          refs,
          ops,
          tally: staged.tally,
          changes,
          result: {
            status: 'imported',
            backupType: header.kind,
            entriesImported: counts.files + counts.directories + counts.symlinks,
            chunksImported: staged.chunkSizes.size,
            filesImported: counts.files,
            directoriesImported: counts.directories,
            deletionsApplied: deletions,
            versionHash: version,
            headPromoted: promote,
          } satisfies ImportResult,
        }
      },
    })
  } finally {
    core.writes.exit()
    lease.release()
  }
}

function checkBase(
  core: ImportServices,
  header: ArchiveHeader,
  force: boolean,
  head: Uint8Array = core.state.rootOf(HEAD),
): void {
  if (header.kind !== 'patch' || force || header.base === undefined) return
  if (!sameBytes(header.base, head)) {
    throw new EngineError(
      'BASE_MISMATCH',
      `the patch applies to version ${toHex(header.base)} but HEAD is ${toHex(head)}; import with force to apply it anyway`,
    )
  }
}

interface Staged {
  objects: Map<string, StagedObject>
  /** Raw size of every chunk in the archive, by hex id. */
  chunkSizes: Map<string, number>
  chunkOps: MetaOp[]
  tally: Tally
  /**
   * Hex ids of archive chunks committed before the import ended (`commitChunksEvery`):
   * referenced by nothing until it does, so they are checked as database chunks are.
   */
  committedEarly: Set<string>
}

async function stageFrames(
  core: ImportServices,
  frames: AsyncGenerator<
    | { type: 'object'; hash: Uint8Array; bytes: Uint8Array; object: TreeObject }
    | { type: 'chunk'; hash: Uint8Array; bytes: Uint8Array },
    { frames: number; bytes: number }
  >,
  lease: Lease,
  options: ImportOptions,
): Promise<Staged> {
  const out: Staged = {
    objects: new Map(),
    chunkSizes: new Map(),
    chunkOps: [],
    tally: { chunks: 0, rawBytes: 0, storedBytes: 0 },
    committedEarly: new Set(),
  }
  const inflight: Promise<void>[] = []
  let count = 0
  let waiting = 0
  let stagedKeys: string[] = []
  try {
    for (;;) {
      const next = await frames.next()
      if (next.done === true) {
        options.onProgress?.({ bytes: next.value.bytes, frames: next.value.frames })
        break
      }
      const frame = next.value
      const key = toHex(frame.hash)
      if (frame.type === 'object') {
        // Frame bytes may be views of the source's buffers: keep a copy of what outlives them.
        if (!out.objects.has(key))
          out.objects.set(key, {
            hash: frame.hash.slice(),
            bytes: frame.bytes.slice(),
            object: frame.object,
          })
      } else if (!out.chunkSizes.has(key)) {
        out.chunkSizes.set(key, frame.bytes.length)
        stagedKeys.push(key)
        // Staged as they are: the reader's views stay valid (sources never reuse a buffer they
        // yielded) and are not kept once staged.
        const { hash, bytes } = frame
        const sweeping = lease.add(hash)
        if (sweeping !== undefined) await sweeping
        inflight.push(
          core.chunks.stage(hash, bytes).then((result) => {
            out.chunkOps.push(...result.ops)
            if (result.isNew) {
              out.tally.chunks++
              out.tally.rawBytes += bytes.length
              out.tally.storedBytes += result.storedBytes
            }
          }),
        )
        if (inflight.length >= STAGE_WINDOW) await inflight.shift()
        waiting += bytes.length
        if (options.commitChunksEvery !== undefined && waiting >= options.commitChunksEvery) {
          await commitStagedChunks(core, out, inflight.splice(0))
          for (const staged of stagedKeys) out.committedEarly.add(staged)
          stagedKeys = []
          waiting = 0
        }
      }
      if (++count % 1024 === 0) options.onProgress?.({ bytes: 0, frames: count })
    }
  } catch (err) {
    await Promise.allSettled(inflight)
    throw err
  }
  const settled = await Promise.allSettled(inflight)
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected')
  if (failed !== undefined) throw failed.reason
  return out
}

/**
 * Commits the chunks staged so far (once `inflight` settles) on their own, with no ref move:
 * durable and unreferenced. This node's GC spares them (the import's lease); another node's
 * may not, which is why the checker looks them up again before the import commits.
 */
async function commitStagedChunks(
  core: ImportServices,
  out: Staged,
  inflight: Promise<void>[],
): Promise<void> {
  const settled = await Promise.allSettled(inflight)
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected')
  if (failed !== undefined) throw failed.reason
  const ops = out.chunkOps.splice(0)
  const tally = out.tally
  out.tally = { chunks: 0, rawBytes: 0, storedBytes: 0 }
  await core.writes.submit({ apply: async () => ({ ops, tally, result: undefined }) })
}

/** Entries of the base version (the patch's, when stored; else HEAD) missing from the target. */
async function countDeletions(
  core: ImportServices,
  staged: ReadonlyMap<string, StagedObject>,
  header: ArchiveHeader,
): Promise<number> {
  let base = core.state.rootOf(HEAD)
  if (header.base !== undefined && (await core.objects.has(header.base))) base = header.base
  const source = {
    load: async (hash: Uint8Array) => {
      const o = staged.get(toHex(hash))
      // Counting needs no bytes, so database objects may come from the cache.
      return o === undefined ? { object: await core.objects.get(hash), bytes: NO_BYTES } : o
    },
  }
  const diff = new VersionDiff(source, undefined)
  try {
    for await (const item of diff.directory(header.target, base)) void item
  } catch (err) {
    if (isEngineError(err, 'NOT_FOUND')) return 0
    throw err
  }
  return diff.deleted
}
