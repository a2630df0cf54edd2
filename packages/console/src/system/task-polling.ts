import { anyActive } from './task-figures'
import type { TaskLike } from './task-figures'

/** How soon the list is read again while a task is pending or running: its progress moves. */
export const ACTIVE_POLL_MS = 2000

/**
 * How soon the list is read again otherwise, while the page is visible: tasks started
 * elsewhere (cron, the API, another console) show up, and the event stream has no task events.
 */
export const IDLE_POLL_MS = 5000

/**
 * When to read the task list again, in ms after the last read: soon while a task is active,
 * less often when none is, and not at all while the page is hidden (it is read again as soon
 * as the page shows).
 */
export function nextTaskPoll(tasks: readonly TaskLike[], visible: boolean): number | undefined {
  if (!visible) return undefined
  return anyActive(tasks) ? ACTIVE_POLL_MS : IDLE_POLL_MS
}
