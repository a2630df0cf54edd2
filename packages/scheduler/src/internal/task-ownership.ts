import type { Task } from '../task'

/** What decides whether a running task of the store may be put back to `pending`. */
export interface OwnershipOptions {
  /** This runner's node id; without one every running task not active here is recoverable. */
  nodeId: string | undefined
  isNodeAlive: ((nodeId: string) => Promise<boolean>) | undefined
}

/**
 * Whether `task` (stored `running`, not running here) was left by a run that is over: one of
 * this node's (a previous process), of no node (a runner without a node id), or of a node
 * `isNodeAlive` calls dead. Asks about each other node once per `alive` cache.
 */
export async function isOrphaned(
  task: Task,
  options: OwnershipOptions,
  alive: Map<string, Promise<boolean>>,
): Promise<boolean> {
  const { nodeId, isNodeAlive } = options
  if (nodeId === undefined || task.owner === undefined || task.owner === nodeId) return true
  if (isNodeAlive === undefined) return false
  let answer = alive.get(task.owner)
  if (answer === undefined) {
    answer = isNodeAlive(task.owner)
    alive.set(task.owner, answer)
  }
  return !(await answer)
}
