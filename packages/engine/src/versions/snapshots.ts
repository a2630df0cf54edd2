import { EngineError } from '../errors'
import { toHex } from '../internal/hex'
import { checkHeadMoveOptions, headLogMark } from './head-log'
import type { HeadMoveOptions } from './head-log'
import { assertRefName, HEAD, namesOf, refKey } from '../meta/keys'
import { createRefMutation, deleteRefMutation, moveRefMutation } from './ref-mutations'
import type { WritePath } from '../commit/write-path'
import type { DatabaseState } from '../state/database-state'
import type { Refresher } from '../state/shared-state'

/** What snapshots are built on: refs, and the write path that moves them. */
export interface SnapshotServices {
  assertOpen(): void
  readonly state: DatabaseState
  readonly writes: WritePath
  /** Set in a shared database: listings read a refreshed state. */
  readonly shared?: Refresher | undefined
}

/** A named, immutable version. */
export interface SnapshotInfo {
  name: string
  /** Hex hash of the version. */
  version: string
  /** Unix milliseconds. */
  createdAt: number
  metadata?: Record<string, unknown>
}

/** Largest accepted snapshot metadata, as JSON text. */
export const MAX_SNAPSHOT_METADATA_BYTES = 64 * 1024

function assertMetadata(metadata: unknown): void {
  if (metadata === undefined) return
  const plain = typeof metadata === 'object' && metadata !== null && !Array.isArray(metadata)
  const text = plain ? JSON.stringify(metadata) : ''
  if (!plain || Buffer.byteLength(text) > MAX_SNAPSHOT_METADATA_BYTES) {
    throw new EngineError(
      'INVALID_INPUT',
      `snapshot metadata must be a JSON object of at most ${MAX_SNAPSHOT_METADATA_BYTES} bytes`,
    )
  }
}

/**
 * Named snapshots of HEAD (DESIGN §3.4). A snapshot only records a root, so snapshotting an
 * unchanged HEAD stores nothing new; it keeps its version alive through GC.
 */
export class Snapshots {
  /** @internal */
  constructor(private readonly core: SnapshotServices) {}

  /** Records HEAD as it is now under `name` (`CONFLICT` if the name is taken). */
  async create(
    name: string,
    options: { metadata?: Record<string, unknown> } = {},
  ): Promise<SnapshotInfo> {
    assertRefName('snapshot', name)
    // `HEAD` names the current version wherever a version is named: a snapshot would be shadowed.
    if (name === HEAD) {
      throw new EngineError(
        'INVALID_NAME',
        'a snapshot cannot be named HEAD: HEAD is the current version',
      )
    }
    assertMetadata(options.metadata)
    const { version, createdAt } = await this.core.writes.submit(
      createRefMutation('snapshot', name, { ref: HEAD }, options.metadata),
    )
    const info: SnapshotInfo = { name, version, createdAt }
    if (options.metadata !== undefined) info.metadata = options.metadata
    return info
  }

  /** Every snapshot, by name. */
  async list(): Promise<SnapshotInfo[]> {
    this.core.assertOpen()
    if (this.core.shared !== undefined) await this.core.shared.refresh()
    return namesOf('snapshot', this.core.state.refs.keys()).map((name) => this.describe(name))
  }

  /** One snapshot; `NOT_FOUND` when absent. */
  async get(name: string): Promise<SnapshotInfo> {
    assertRefName('snapshot', name)
    this.core.assertOpen()
    if (this.core.shared !== undefined) await this.core.shared.refresh()
    return this.describe(name)
  }

  /** Removes a snapshot (its version stays readable until GC, if nothing else holds it). */
  async delete(name: string): Promise<void> {
    assertRefName('snapshot', name)
    await this.core.writes.submit(deleteRefMutation(refKey('snapshot', name)))
  }

  /**
   * Makes the snapshot HEAD again; returns the new HEAD and the version it replaced, which
   * the HEAD log records (cause `restore`). With `expectHead`, refuses with `CONFLICT` unless
   * HEAD is that version when the move commits.
   */
  async restore(
    name: string,
    options: HeadMoveOptions = {},
  ): Promise<{ version: string; previous: string }> {
    assertRefName('snapshot', name)
    const expectHead = checkHeadMoveOptions(options)
    return this.core.writes.submit(
      moveRefMutation(HEAD, { ref: refKey('snapshot', name) }, 'restore', [], {
        expectHead,
        headLog: headLogMark('restore', options.by),
      }),
    )
  }

  private describe(name: string): SnapshotInfo {
    const ref = refKey('snapshot', name)
    const root = this.core.state.refs.get(ref)
    if (root === undefined)
      throw new EngineError('NOT_FOUND', `no snapshot named ${JSON.stringify(name)}`)
    const stored = this.core.state.infos.get(ref)
    const info: SnapshotInfo = { name, version: toHex(root), createdAt: stored?.createdAt ?? 0 }
    if (stored?.metadata !== undefined) info.metadata = stored.metadata
    return info
  }
}
