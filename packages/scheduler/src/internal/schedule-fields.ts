import { SchedulerError } from '../errors'

const MAX_ID_LENGTH = 128

/**
 * Checks a client-chosen schedule id: 1 to 128 characters, no `/` (it is a URL path
 * segment) and no control characters.
 *
 * @throws {SchedulerError} `INVALID_SCHEDULE`.
 */
export function checkScheduleId(id: unknown): string {
  if (typeof id !== 'string') {
    throw new SchedulerError(
      'INVALID_SCHEDULE',
      `a schedule id must be a string, got ${typeOf(id)}`,
    )
  }
  const problem =
    id === ''
      ? 'must not be empty'
      : id.length > MAX_ID_LENGTH
        ? `must be at most ${MAX_ID_LENGTH} characters`
        : id.includes('/')
          ? 'must not contain "/"'
          : // eslint-disable-next-line no-control-regex
            /[\u0000-\u001f\u007f]/.test(id)
            ? 'must not contain control characters'
            : undefined
  if (problem !== undefined) {
    throw new SchedulerError('INVALID_SCHEDULE', `schedule id ${JSON.stringify(id)} ${problem}`, {
      id,
    })
  }
  return id
}

/** @throws {SchedulerError} `INVALID_SCHEDULE` unless `value` is a boolean. */
export function checkEnabled(value: unknown, id: string): boolean {
  if (typeof value === 'boolean') return value
  throw new SchedulerError('INVALID_SCHEDULE', `enabled must be a boolean, got ${typeOf(value)}`, {
    id,
  })
}

/** @throws {SchedulerError} `INVALID_SCHEDULE` unless `value` is a non-empty string. */
export function checkTaskType(value: unknown, id: string): string {
  if (typeof value === 'string' && value !== '') return value
  throw new SchedulerError(
    'INVALID_SCHEDULE',
    `task_type must be a non-empty string, got ${typeOf(value)}`,
    { id },
  )
}

function typeOf(value: unknown): string {
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'an array'
  return typeof value === 'string' ? JSON.stringify(value) : typeof value
}
