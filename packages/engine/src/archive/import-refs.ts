import type { DatabaseChange } from '../changes/database-change'
import type { RefUpdate } from '../commit/mutation'
import { EngineError } from '../errors'
import { sameBytes, toHex } from '../internal/hex'
import { assertRefName, HEAD, refKey } from '../meta/keys'
import { assertExpectedHead, headLogMark } from '../versions/head-log'

/** Where an import puts its version, as `importArchive`'s options say. */
export interface ImportTarget {
  promote?: boolean | undefined
  fork?: string | undefined
  pin?: string | undefined
  by?: string | undefined
}

/** Refuses contradictory or malformed targets before anything is read. */
export function checkImportTarget(target: ImportTarget): void {
  if (target.fork !== undefined) {
    assertRefName('fork', target.fork)
    if (target.promote === true)
      throw new EngineError(
        'INVALID_INPUT',
        'an import goes either to HEAD (promote) or into a new fork, not both',
      )
  }
  if (target.pin !== undefined) assertRefName('peer', target.pin)
}

/** Throws `CONFLICT` when the fork the import would create exists (checked again in the commit). */
export function assertForkFree(
  target: ImportTarget,
  rootOf: (ref: string) => Uint8Array | undefined,
): void {
  if (target.fork === undefined) return
  if (rootOf(refKey('fork', target.fork)) !== undefined)
    throw new EngineError(
      'CONFLICT',
      `fork ${JSON.stringify(target.fork)} already exists; nothing was imported`,
    )
}

/**
 * The ref moves and changes of an import's commit: HEAD (promote), a new fork, or an
 * `import/` pin that keeps the version for a later promote; plus the `peer/` pin, moved in
 * the same batch. A peer pin keeps the version by itself, so it replaces the `import/` pin.
 */
export function importRefUpdates(
  target: ImportTarget,
  version: Uint8Array,
  context: {
    rootOf(ref: string): Uint8Array | undefined
    now: number
    expectHead: Uint8Array | undefined
  },
): { refs: RefUpdate[]; changes: DatabaseChange[] } {
  const { rootOf, now } = context
  const hex = toHex(version)
  const refs: RefUpdate[] = []
  const changes: DatabaseChange[] = []
  if (target.promote === true) {
    const previous = rootOf(HEAD) as Uint8Array
    assertExpectedHead(previous, context.expectHead)
    const replaces = !sameBytes(previous, version)
    refs.push({
      ref: HEAD,
      root: version,
      ...(replaces ? { headLog: headLogMark('import', target.by) } : {}),
    })
    if (replaces)
      changes.push({
        type: 'version_promoted',
        at: now,
        fork: undefined,
        version: hex,
        previous: toHex(previous),
        cause: 'import',
      })
  } else if (target.fork !== undefined) {
    assertForkFree(target, rootOf)
    // As `forks.create` records it, so listings and events cannot tell the two apart.
    refs.push({
      ref: refKey('fork', target.fork),
      root: version,
      info: { createdAt: now, base: hex },
    })
    changes.push({
      type: 'version_created',
      at: now,
      fork: target.fork,
      version: hex,
      kind: 'fork',
      name: target.fork,
    })
  } else if (target.pin === undefined) {
    refs.push({ ref: refKey('import', hex), root: version })
  }
  if (target.pin !== undefined) refs.push({ ref: refKey('peer', target.pin), root: version })
  return { refs, changes }
}
