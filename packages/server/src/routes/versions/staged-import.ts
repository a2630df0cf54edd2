import type { Database, ImportOptions, ImportResult } from '@svcdb/engine'
import { isEngineError } from '@svcdb/engine'
import type { Context } from 'hono'
import { isServerError, ServerError } from '../../errors/server-error'
import { readRequestBytes } from '../../routing/request-stream'
import type { AppEnv } from '../../routing/app-env'

/** Where a staged archive lives: its path, and the fork it was uploaded to (HEAD when absent). */
export interface StagedArchive {
  path: string
  fork?: string | undefined
}

/**
 * `POST /versions/import?from=<path>`: imports an archive stored as a file (uploaded with
 * the dedup upload protocol, which has no 10 MB body limit) with the same checks as an
 * archive sent as the body. The file is read from a pinned view, so a write racing the
 * import cannot change what is imported. It is deleted afterwards whatever the outcome: a
 * staged archive is never left behind to be imported twice or to take space.
 */
export async function importStaged(
  c: Context<AppEnv>,
  db: Database,
  staged: StagedArchive,
  options: ImportOptions,
): Promise<ImportResult> {
  // The archive comes from the file: a body as well would be ambiguous. Its first byte is
  // enough to tell (nothing more is read).
  await readRequestBytes(c, { maxBytes: 0, what: 'a body' }).catch((err: unknown) => {
    if (!isServerError(err, 'PAYLOAD_TOO_LARGE')) throw err
    throw new ServerError('BAD_REQUEST', 'send no body with from=: the archive is the staged file')
  })
  const workspace = staged.fork === undefined ? db : db.fork(staged.fork)
  try {
    const view = workspace.view()
    const entry = await view.stat(staged.path, { follow: false })
    if (entry.entryType !== 'file') {
      throw new ServerError('BAD_REQUEST', `${staged.path} is not a file`)
    }
    const archive = view.createReadStream(staged.path) as unknown as AsyncIterable<Uint8Array>
    return await db.importArchive(archive, options)
  } finally {
    await workspace.delete(staged.path).catch((err: unknown) => {
      // Already gone (a promote replaced the tree that held it, or it never existed).
      if (!isEngineError(err, 'NOT_FOUND')) throw err
    })
  }
}
