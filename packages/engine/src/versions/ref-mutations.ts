import type { DatabaseChange } from '../changes/database-change'
import type { Mutation } from '../commit/mutation'
import type { RefInfo } from '../state/ref-move'
import { EngineError } from '../errors'
import { sameBytes, toHex } from '../internal/hex'
import { assertExpectedHead } from './head-log'
import type { HeadLogMark } from './head-log'
import { describeRef, forkOf, HEAD, refKey } from '../meta/keys'

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

/** How a HEAD move that replaces history is guarded and logged. */
export interface HeadMoveGuard {
  /** Refuse with `CONFLICT` unless the target is this root at the mutation's turn. */
  expectHead?: Uint8Array | undefined
  /** Record the move in the HEAD log (when it changes HEAD). */
  headLog?: HeadLogMark
}

/**
 * Moves `target` (HEAD or a fork) to a whole other version: the root of `source` (a ref),
 * or `root`. Also removes the refs in `clear` (an import's pin once promoted). The
 * `expectHead` check runs here, inside the commit, so it is a true compare-and-swap.
 */
export function moveRefMutation(
  target: string,
  from: { ref: string } | { root: Uint8Array },
  cause: 'restore' | 'fork' | 'promote' | 'import',
  clear: readonly string[] = [],
  guard: HeadMoveGuard = {},
): Mutation<{ version: string; previous: string }> {
  return {
    ref: target,
    async apply({ root: previous, rootOf, now }) {
      assertExpectedHead(previous, guard.expectHead)
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
      const logged = guard.headLog !== undefined && target === HEAD && !sameBytes(root, previous)
      return {
        root,
        ...(logged ? { headLog: guard.headLog as HeadLogMark } : {}),
        refs,
        changes,
        result: { version: toHex(root), previous: toHex(previous) },
      }
    },
  }
}
