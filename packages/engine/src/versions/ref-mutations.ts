import type { DatabaseChange } from '../changes/database-change'
import type { Mutation, RefInfo } from '../commit/committer'
import { EngineError } from '../errors'
import { sameBytes, toHex } from '../internal/hex'
import { describeRef, forkOf, refKey } from './ref-names'

/** Creates a snapshot or fork `name` at the root of `source` (a ref) or at `root`. */
export function createRefMutation(
  kind: 'snapshot' | 'fork',
  name: string,
  from: { ref: string } | { root: Uint8Array },
  metadata?: Record<string, unknown>,
): Mutation<{ version: string; createdAt: number }> {
  const ref = refKey(kind, name)
  return {
    async apply({ rootOf, now }) {
      if (rootOf(ref) !== undefined)
        throw new EngineError('CONFLICT', `${describeRef(ref)} already exists`)
      const root = 'root' in from ? from.root : rootOf(from.ref)
      if (root === undefined)
        throw new EngineError(
          'NOT_FOUND',
          `${describeRef((from as { ref: string }).ref)} does not exist`,
        )
      const info: RefInfo = { createdAt: now }
      if (metadata !== undefined) info.metadata = metadata
      if (kind === 'fork') info.base = toHex(root)
      const change: DatabaseChange = {
        type: 'version_created',
        at: now,
        fork: kind === 'fork' ? name : undefined,
        version: toHex(root),
        kind,
        name,
      }
      if (metadata !== undefined) change.metadata = metadata
      return {
        refs: [{ ref, root, info }],
        changes: [change],
        result: { version: toHex(root), createdAt: now },
      }
    },
  }
}

/** Removes a snapshot or fork (`NOT_FOUND` when absent). */
export function deleteRefMutation(ref: string): Mutation<void> {
  return {
    ref,
    async apply() {
      return { refs: [{ ref, root: null }], result: undefined }
    },
  }
}

/**
 * Moves `target` (HEAD or a fork) to a whole other version: the root of `source` (a ref),
 * or `root`. Also removes the refs in `clear` (an import's pin once promoted).
 */
export function moveRefMutation(
  target: string,
  from: { ref: string } | { root: Uint8Array },
  cause: 'restore' | 'fork' | 'promote' | 'import',
  clear: readonly string[] = [],
): Mutation<{ version: string; previous: string }> {
  return {
    ref: target,
    async apply({ root: previous, rootOf, now }) {
      const root = 'root' in from ? from.root : rootOf(from.ref)
      if (root === undefined)
        throw new EngineError(
          'NOT_FOUND',
          `${describeRef((from as { ref: string }).ref)} does not exist`,
        )
      const refs = clear
        .filter((ref) => rootOf(ref) !== undefined)
        .map((ref) => ({ ref, root: null }))
      const changes: DatabaseChange[] = sameBytes(root, previous)
        ? []
        : [
            {
              type: 'version_promoted',
              at: now,
              fork: forkOf(target),
              version: toHex(root),
              previous: toHex(previous),
              cause,
            },
          ]
      return { root, refs, changes, result: { version: toHex(root), previous: toHex(previous) } }
    },
  }
}
