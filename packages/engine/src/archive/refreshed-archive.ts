import type { SharedState } from '../state/shared-state'

/**
 * An archive stream of `write`; in a shared database (`shared`), of the versions named as of
 * a refresh at its first read, so an export sees every node's commits made before it began.
 */
export function refreshedArchive(
  shared: SharedState | undefined,
  write: () => AsyncGenerator<Uint8Array>,
): AsyncGenerator<Uint8Array> {
  if (shared === undefined) return write()
  return (async function* () {
    await shared.refresh()
    yield* write()
  })()
}

/** `bytes` as a one-part stream: an archive given whole goes through the streaming import. */
export async function* oneChunk(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes
}
