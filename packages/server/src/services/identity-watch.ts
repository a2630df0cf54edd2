import type { Auth } from '@svcdb/auth'
import type { OpenedDatabase } from './open-database'

/**
 * Clears this node's identity cache when another node changed users, groups, keys, shares or
 * revocations: on each write notification (every commit of every node notifies) one read of
 * identity's change stamp, single-flight: notifications during a check make one more check,
 * not one each. Returns the function that stops it.
 */
export function watchIdentityChanges(
  opened: Pick<OpenedDatabase, 'watch'>,
  auth: Pick<Auth, 'checkExternalChanges'>,
  onError: (err: unknown) => void,
): () => void {
  let running = false
  let again = false
  const check = async () => {
    running = true
    try {
      do {
        again = false
        await auth.checkExternalChanges().catch(onError)
      } while (again)
    } finally {
      running = false
    }
  }
  return opened.watch(() => {
    if (running) again = true
    else void check()
  })
}
