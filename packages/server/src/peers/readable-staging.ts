import { isEngineError } from '@svcdb/engine'
import type { Database, TreeView, Workspace } from '@svcdb/engine'
import { PeerError } from './peer-error'
import type { ApplyStep } from './readable-plan'

/**
 * The staging fork of `peer`'s readable pulls (`attempt` 0), or of a later attempt to land
 * them: `peer-NAME.staging[.N]`. A `.` is in no peer's name, so no `peer-NAME-<hash>` fork
 * of any peer can take it.
 */
export function stagingForkName(peer: string, attempt = 0): string {
  return attempt === 0 ? `peer-${peer}.staging` : `peer-${peer}.staging.${attempt}`
}

/**
 * Abandons every staging fork of `peer`: what a crash or a failed pull left, never promoted.
 * HEAD never saw any of it, so nothing else needs undoing.
 */
export async function dropStaging(db: Database, peer: string): Promise<void> {
  const prefix = stagingForkName(peer)
  for (const fork of await db.forks.list())
    if (fork.name === prefix || fork.name.startsWith(`${prefix}.`))
      await abandonIfPresent(db, fork.name)
}

/** Abandons fork `name` when it exists. */
export async function abandonIfPresent(db: Database, name: string): Promise<void> {
  try {
    await db.forks.abandon(name)
  } catch (err) {
    if (!isEngineError(err, 'NOT_FOUND')) throw err
  }
}

/**
 * Makes `steps` again on `workspace` (a staging fork made from a newer HEAD), copying from
 * `staged` (the version an earlier staging fork reached with them, every file of it already
 * verified): a step the peer refused left nothing there and is left out again. No byte is
 * asked of the peer; each copy is checked against the staged hash all the same.
 */
export async function replaySteps(
  workspace: Workspace,
  staged: TreeView,
  steps: readonly ApplyStep[],
  signal: AbortSignal,
): Promise<void> {
  for (const step of steps) {
    if (signal.aborted) throw signal.reason
    if (step.op === 'delete') {
      await deleteIfPresent(workspace, step.path)
      continue
    }
    const entry = await stagedEntry(staged, step.entry.path)
    if (entry === undefined) continue
    if (entry.entryType === 'directory') await workspace.mkdir(entry.path)
    else if (entry.entryType === 'symlink') await workspace.symlink(entry.path, entry.target ?? '')
    else {
      const written = await workspace.writeFile(entry.path, staged.createReadStream(entry.path), {
        contentType: entry.contentType ?? 'application/octet-stream',
        signal,
        ...(entry.metadata === undefined ? {} : { metadata: entry.metadata }),
      })
      if (written.hash !== entry.hash)
        throw new PeerError('INTERNAL', `copying staged ${entry.path} gave another hash`)
    }
  }
}

/** Deletes `path` (recursively) from `workspace`; absent already is the wanted state. */
export async function deleteIfPresent(workspace: Workspace, path: string): Promise<void> {
  try {
    await workspace.delete(path, { recursive: true })
  } catch (err) {
    if (!isEngineError(err, 'NOT_FOUND') && !isEngineError(err, 'NOT_A_DIRECTORY')) throw err
  }
}

async function stagedEntry(view: TreeView, path: string) {
  try {
    return await view.stat(path, { follow: false })
  } catch (err) {
    if (isEngineError(err, 'NOT_FOUND') || isEngineError(err, 'NOT_A_DIRECTORY')) return undefined
    throw err
  }
}
