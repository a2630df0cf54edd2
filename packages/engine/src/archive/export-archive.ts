import { HashSet } from '../internal/hash-set'
import { resolveVersionRoot } from '../versions/version-spec'
import type { VersionSpec } from '../versions/version-spec'
import { ARCHIVE_FORMAT_VERSION, createArchiveWriter } from './archive-codec'
import type { ArchiveHeader } from './archive-codec'
import { VersionDiff } from './version-diff'
import type { WalkItem } from './version-diff'
import type { ChunkStore } from '../chunks/chunk-store'
import type { GcFence, Lease } from '../commit/gc-fence'
import type { Clock } from '../internal/clock'
import type { ObjectStore } from '../objects/object-store'
import type { FormatRecord } from '../state/format-record'
import type { VersionSpecServices } from '../versions/version-spec'

/** What exporting an archive needs. */
export interface ExportServices extends VersionSpecServices {
  assertOpen(): void
  readonly chunks: ChunkStore
  readonly clock: Clock
  readonly fence: GcFence
  readonly format: FormatRecord
  readonly objects: ObjectStore
}

/** Progress of an export or diff, reported as frames are produced. */
export interface ExportProgress {
  objects: number
  chunks: number
  /** Archive bytes produced. */
  bytes: number
}

/** Options of exports and diffs. */
export interface ExportOptions {
  /**
   * Raw ids (32 bytes each) of chunks the receiver already holds: they are left out of the
   * archive (objects never are). A receiver learns which to name from {@link archiveChunkIds}.
   */
  skipChunks?: Iterable<Uint8Array>
  signal?: AbortSignal
  onProgress?(progress: ExportProgress): void
}

/** Chunk reads kept in flight ahead of the writer. */
const READ_AHEAD = 8

/**
 * Streams an archive of `to` (DESIGN §3.5): with `from`, a patch holding what `to` has and
 * `from` lacks; without, a full export. The versions are pinned against GC while streaming,
 * and memory stays bounded by the read-ahead window and the set of hashes already sent.
 */
export async function* writeArchive(
  core: ExportServices,
  to: VersionSpec,
  from: VersionSpec | null,
  options: ExportOptions = {},
): AsyncGenerator<Uint8Array> {
  core.assertOpen()
  const { target, base, lease } = await pinVersions(core, to, from)
  try {
    const header: ArchiveHeader = {
      formatVersion: ARCHIVE_FORMAT_VERSION,
      kind: base === undefined ? 'export' : 'patch',
      hashAlgorithm: core.format.hashAlgorithm,
      createdAt: core.clock.now(),
      base,
      target,
    }
    const writer = createArchiveWriter(header, core.objects.hasher)
    const progress: ExportProgress = { objects: 0, chunks: 0, bytes: 0 }
    yield writer.header()
    const walk = new VersionDiff(core.objects, new HashSet(), options.signal)
    const skip = skipSet(options.skipChunks)
    const order: { item: WalkItem; read?: Promise<Uint8Array> }[] = []
    for await (const item of walk.directory(target, base)) {
      if (item.type === 'chunk') {
        if (skip?.has(item.hash) === true) continue
        const read = core.chunks.read(item.hash, { size: item.size })
        // Handled when its turn comes; this keeps an early exit from leaving it unhandled.
        read.catch(() => undefined)
        order.push({ item, read })
      } else order.push({ item })
      if (order.length >= READ_AHEAD) yield* flushOne(order.shift(), writer, progress, options)
    }
    while (order.length > 0) yield* flushOne(order.shift(), writer, progress, options)
    const end = writer.end()
    progress.bytes = writer.bytes
    options.onProgress?.(progress)
    yield end
  } finally {
    lease.release()
  }
}

/**
 * The chunks to leave out, apart from the walk's own set of what was sent: there an object
 * stands for its whole subtree, and a named id must never drop one.
 */
function skipSet(skip: Iterable<Uint8Array> | undefined): HashSet | undefined {
  if (skip === undefined) return undefined
  const set = new HashSet()
  for (const id of skip) set.add(id)
  return set.size === 0 ? undefined : set
}

/**
 * The raw ids of the chunks an archive of `to` (with `from`, a patch) would carry, in archive
 * order, without reading one: a receiver checks which it holds and names them in
 * {@link ExportOptions.skipChunks}, so chunks it has are never sent again.
 */
export async function* archiveChunkIds(
  core: ExportServices,
  to: VersionSpec,
  from: VersionSpec | null,
  options: { signal?: AbortSignal } = {},
): AsyncGenerator<Uint8Array> {
  core.assertOpen()
  const { target, base, lease } = await pinVersions(core, to, from)
  try {
    const walk = new VersionDiff(core.objects, new HashSet(), options.signal)
    for await (const item of walk.directory(target, base))
      if (item.type === 'chunk') yield item.hash
  } finally {
    lease.release()
  }
}

/** Resolves `to` and `from` (null: none) and pins them against GC until `lease` is released. */
async function pinVersions(
  core: ExportServices,
  to: VersionSpec,
  from: VersionSpec | null,
): Promise<{ target: Uint8Array; base: Uint8Array | undefined; lease: Lease }> {
  const target = await resolveVersionRoot(core, to)
  const base = from === null ? undefined : await resolveVersionRoot(core, from)
  const lease = core.fence.lease()
  for (const root of base === undefined ? [target] : [target, base]) {
    const sweeping = lease.add(root)
    if (sweeping !== undefined) await sweeping
  }
  return { target, base, lease }
}

async function* flushOne(
  next: { item: WalkItem; read?: Promise<Uint8Array> } | undefined,
  writer: ReturnType<typeof createArchiveWriter>,
  progress: ExportProgress,
  options: ExportOptions,
): AsyncGenerator<Uint8Array> {
  if (next === undefined) return
  const { item } = next
  if (item.type === 'object') {
    progress.objects++
    yield* writer.object(item.hash, item.bytes)
  } else {
    progress.chunks++
    yield* writer.chunk(item.hash, await (next.read as Promise<Uint8Array>))
  }
  progress.bytes = writer.bytes
  options.onProgress?.(progress)
}
