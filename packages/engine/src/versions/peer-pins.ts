import type { Mutation } from '../commit/mutation'
import type { WritePath } from '../commit/write-path'
import { parseHash, toHex } from '../internal/hex'
import { assertRefName, namesOf, refKey } from '../meta/keys'
import type { MetaStore } from '../meta/meta-store'
import type { DatabaseState } from '../state/database-state'
import type { Refresher } from '../state/shared-state'
import { withStoredVersion } from './existing-version'
import type { PinnedVersionServices } from './existing-version'
import { assertVersionRoot } from './version-roots'

/** What peer pins are built on: refs, the write path that moves them, and the GC fence. */
export interface PeerPinServices extends PinnedVersionServices {
  assertOpen(): void
  readonly meta: MetaStore
  readonly state: DatabaseState
  readonly writes: WritePath
  /** Set in a shared database: reads see a refreshed state. */
  readonly shared?: Refresher | undefined
}

/** A replication peer's pin: the version last synced from it. */
export interface PeerPin {
  /** The peer's name. */
  name: string
  /** Hex hash of the version. */
  version: string
}

/**
 * The version last synced from each replication peer, kept as a `peer/<name>` ref: safe from
 * GC like every ref, durable across restarts, and never listed as a snapshot or fork nor
 * reported as a change. `importArchive({ pin })` moves a pin in the import's own commit, so a
 * crash can never separate the imported version from its pin.
 *
 * @example
 * await db.importArchive(patch, { force: true, pin: 'office' })
 * const cursor = await db.peerPins.get('office') // the imported version's hash
 * await db.peerPins.set('office', db.head()) // the peer caught up with this node
 * await db.peerPins.delete('office') // the peer is gone: let GC have its version
 */
export class PeerPins {
  /** @internal */
  constructor(private readonly core: PeerPinServices) {}

  /** The hex version pinned for peer `name`, or `undefined` when there is none. */
  async get(name: string): Promise<string | undefined> {
    assertRefName('peer', name)
    await this.refresh()
    const root = this.core.state.refs.get(refKey('peer', name))
    return root === undefined ? undefined : toHex(root)
  }

  /**
   * Pins `version` (a hex hash) for peer `name`, replacing its pin. `INVALID_HASH` for a
   * malformed hash, `NOT_FOUND` unless it is the root of a version this database stores.
   */
  async set(name: string, version: string): Promise<void> {
    assertRefName('peer', name)
    const root = parseHash(version)
    await this.refresh()
    // A directory's hash must never become a version (see isVersionRoot).
    await assertVersionRoot(this.core, root)
    const ref = refKey('peer', name)
    const move: Mutation<void> = {
      async apply() {
        return { refs: [{ ref, root }], result: undefined }
      },
    }
    await withStoredVersion(this.core, root, () => this.core.writes.submit(move))
  }

  /** Removes peer `name`'s pin; its version stays until GC, if nothing else holds it. No error when absent. */
  async delete(name: string): Promise<void> {
    assertRefName('peer', name)
    this.core.assertOpen()
    const ref = refKey('peer', name)
    await this.core.writes.submit<void>({
      async apply({ rootOf }) {
        return { refs: rootOf(ref) === undefined ? [] : [{ ref, root: null }], result: undefined }
      },
    })
  }

  /** Every pin, by peer name. */
  async list(): Promise<PeerPin[]> {
    await this.refresh()
    const { refs } = this.core.state
    return namesOf('peer', refs.keys()).map((name) => ({
      name,
      version: toHex(refs.get(refKey('peer', name)) as Uint8Array),
    }))
  }

  private async refresh(): Promise<void> {
    this.core.assertOpen()
    if (this.core.shared !== undefined) await this.core.shared.refresh()
  }
}
