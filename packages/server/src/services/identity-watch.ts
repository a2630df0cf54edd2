import type { Auth } from '@svcdb/auth'
import type { OpenedDatabase } from './open-database'

/**
 * Clears this node's identity cache when another node changed users, groups, keys, shares or
 * revocations: on each write notification (every commit of every node notifies) one read of
 * identity's change stamp, single-flight: notifications during a check make one more check,
 * not one each. Returns the function that stops it and waits for a check under way.
 */
export function watchIdentityChanges(
  opened: Pick<OpenedDatabase, 'watch'>,
  auth: Pick<Auth, 'checkExternalChanges'>,
  onError: (err: unknown) => void,
): () => Promise<void> {
  let running: Promise<void> | undefined
  let again = false
  const check = async () => {
    do {
      again = false
      await auth.checkExternalChanges().catch(onError)
    } while (again)
  }
  const stopWatch = opened.watch(() => {
    if (running !== undefined) again = true
    else
      running = check().finally(() => {
        running = undefined
      })
  })
  // Stopped before the database closes: a check still reading must end first.
  return async () => {
    stopWatch()
    await running
  }
}
