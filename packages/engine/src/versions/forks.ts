import { EngineError } from '../errors'
import { toHex } from '../internal/hex'
import { withStoredVersion } from './existing-version'
import { checkHeadMoveOptions, headLogMark } from './head-log'
import type { HeadMoveOptions } from './head-log'
import { assertRefName, HEAD, namesOf, refKey } from '../meta/keys'
import { createRefMutation, deleteRefMutation, moveRefMutation } from './ref-mutations'
import { resolveVersionRoot } from './version-spec'
import type { VersionSpec } from './version-spec'
import type { WritePath } from '../commit/write-path'
import type { PinnedVersionServices } from './existing-version'
import type { VersionSpecServices } from './version-spec'

/**
 * What forks are built on: refs and the version log (to resolve a base), the write path that
 * moves refs, and the fence that pins a base while the fork is created.
 */
export interface ForkServices extends VersionSpecServices, PinnedVersionServices {
  readonly writes: WritePath
}

/** A writable line of versions beside HEAD. */
export interface ForkInfo {
  name: string
  /** Hex hash of the fork's latest version. */
  version: string
  /** Hex hash of the version it started from. */
  base: string
  /** Unix milliseconds. */
  createdAt: number
}

/**
 * Forks (DESIGN §3.4): `db.fork(name)` gives the full file API on one; its writes never touch
 * HEAD until `promote`. A promoted fork stays, so work on it can go on; `abandon` removes it.
 */
export class Forks {
  /** @internal */
  constructor(private readonly core: ForkServices) {}

  /**
   * Creates fork `name` at `base`: HEAD by default, else a snapshot name or a version hash
   * (`NOT_FOUND` if not stored). `CONFLICT` if the name is taken.
   */
  async create(name: string, options: { base?: VersionSpec } = {}): Promise<ForkInfo> {
    assertRefName('fork', name)
    const from =
      options.base === undefined
        ? { ref: HEAD }
        : { root: await resolveVersionRoot(this.core, options.base) }
    const run = () => this.core.writes.submit(createRefMutation('fork', name, from))
    const { version, createdAt } =
      'root' in from ? await withStoredVersion(this.core, from.root, run) : await run()
    return { name, version, base: version, createdAt }
  }

  /** Every fork, by name. */
  async list(): Promise<ForkInfo[]> {
    this.core.assertOpen()
    if (this.core.shared !== undefined) await this.core.shared.refresh()
    return namesOf('fork', this.core.state.refs.keys()).map((name) => this.describe(name))
  }

  /** One fork; `NOT_FOUND` when absent. */
  async get(name: string): Promise<ForkInfo> {
    assertRefName('fork', name)
    this.core.assertOpen()
    if (this.core.shared !== undefined) await this.core.shared.refresh()
    return this.describe(name)
  }

  /**
   * Makes the fork's latest version HEAD, recording the move in the HEAD log (cause
   * `fork_promote`). With `expectHead`, refuses with `CONFLICT` unless HEAD is that version
   * when the move commits: HEAD commits made since then would otherwise be set aside.
   */
  async promote(
    name: string,
    options: HeadMoveOptions = {},
  ): Promise<{ version: string; previous: string }> {
    assertRefName('fork', name)
    const expectHead = checkHeadMoveOptions(options)
    return this.core.writes.submit(
      moveRefMutation(HEAD, { ref: refKey('fork', name) }, 'fork', [], {
        expectHead,
        headLog: headLogMark('fork_promote', options.by),
      }),
    )
  }

  /** Removes the fork; its versions stay readable until GC, if nothing else holds them. */
  async abandon(name: string): Promise<void> {
    assertRefName('fork', name)
    await this.core.writes.submit(deleteRefMutation(refKey('fork', name)))
  }

  private describe(name: string): ForkInfo {
    const ref = refKey('fork', name)
    const root = this.core.state.refs.get(ref)
    if (root === undefined)
      throw new EngineError('NOT_FOUND', `no fork named ${JSON.stringify(name)}`)
    const info = this.core.state.infos.get(ref)
    const version = toHex(root)
    return { name, version, base: info?.base ?? version, createdAt: info?.createdAt ?? 0 }
  }
}
