import { CronExpressionParser } from 'cron-parser'
import { SchedulerError } from './errors'

/** A validated five-field cron expression, evaluated in UTC. */
export interface CronExpression {
  /** The expression with its whitespace normalised to single spaces. */
  readonly source: string
  /**
   * The first time strictly after `timeMs` (Unix ms) at which the expression fires, always
   * on a whole minute; `undefined` when none is found within cron-parser's search limit
   * (about 27 years of days).
   */
  nextAfter(timeMs: number): number | undefined
}

/** Options of {@link parseCronExpression}. */
export interface ParseCronOptions {
  /** The time from which the expression must fire at least once; defaults to `Date.now()`. */
  now?: number
}

const FIELD_NAMES = ['minute', 'hour', 'day-of-month', 'month', 'day-of-week'] as const
const MAX_LENGTH = 256

function refuse(source: string, reason: string, cause?: unknown): SchedulerError {
  const shown = source.length > 80 ? `${source.slice(0, 77)}...` : source
  return new SchedulerError(
    'INVALID_CRON',
    `invalid cron expression ${JSON.stringify(shown)}: ${reason}`,
    cause === undefined ? {} : { cause },
  )
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err)
}

function parseUtc(source: string, currentDate?: number) {
  return CronExpressionParser.parse(
    source,
    currentDate === undefined ? { tz: 'UTC' } : { tz: 'UTC', currentDate: new Date(currentDate) },
  )
}

/** Names the first field that is wrong on its own, so the message says where to look. */
function diagnose(fields: readonly string[]): { reason: string; cause?: unknown } | undefined {
  for (const [index, field] of fields.entries()) {
    const name = FIELD_NAMES[index] ?? 'unknown'
    // `thu` is the only name with an H in it; any other H is cron-parser's random hash.
    if (/h/i.test(field.replace(/thu/gi, ''))) {
      return {
        reason: `${name} field ${JSON.stringify(field)}: hashed values (H) are not supported`,
      }
    }
    if (field.includes('?') && name !== 'day-of-month' && name !== 'day-of-week') {
      return {
        reason: `${name} field ${JSON.stringify(field)}: "?" is only allowed in day-of-month and day-of-week`,
      }
    }
    const alone = FIELD_NAMES.map((_, i) => (i === index ? field : '*')).join(' ')
    try {
      parseUtc(alone)
    } catch (err) {
      return { reason: `${name} field ${JSON.stringify(field)}: ${messageOf(err)}`, cause: err }
    }
  }
  return undefined
}

function nextAfter(source: string, timeMs: number): number | undefined {
  try {
    const next = parseUtc(source, timeMs).next().getTime()
    return Number.isFinite(next) && next > timeMs ? next : undefined
  } catch {
    // cron-parser gives up after a bounded number of steps: treat it as "does not fire".
    return undefined
  }
}

/**
 * Parses and validates a five-field cron expression (`minute hour day-of-month month
 * day-of-week`, UTC) with cron-parser. Refused, with a message saying what is wrong: anything
 * but five fields (six-field expressions with seconds included), `@` aliases, hashed `H`
 * values, out-of-range or malformed fields, and expressions that never fire such as
 * `0 0 30 2 *`. Lists, ranges, steps, names (`jan`, `mon`), `L` and `#` are accepted.
 *
 * @throws {SchedulerError} `INVALID_CRON`.
 * @example
 * const cron = parseCronExpression('30 2 * * 1-5') // 02:30 UTC on weekdays
 * cron.nextAfter(Date.UTC(2026, 0, 5)) // Date.UTC(2026, 0, 5, 2, 30)
 */
export function parseCronExpression(
  source: unknown,
  options: ParseCronOptions = {},
): CronExpression {
  if (typeof source !== 'string') {
    throw refuse(
      String(source),
      `expected a string, got ${source === null ? 'null' : typeof source}`,
    )
  }
  const trimmed = source.trim()
  if (trimmed.length > MAX_LENGTH) throw refuse(trimmed, `longer than ${MAX_LENGTH} characters`)
  if (trimmed === '') {
    throw refuse(
      trimmed,
      'it is empty; expected five fields: minute hour day-of-month month day-of-week',
    )
  }
  if (trimmed.startsWith('@')) {
    throw refuse(
      trimmed,
      'aliases such as @daily are not supported; write five fields, e.g. "0 0 * * *"',
    )
  }
  const fields = trimmed.split(/\s+/)
  if (fields.length !== 5) {
    const extra = fields.length === 6 ? ' (a seconds field is not supported)' : ''
    throw refuse(
      trimmed,
      `expected five fields (minute hour day-of-month month day-of-week), got ${fields.length}${extra}`,
    )
  }
  const normalised = fields.join(' ')
  const fieldProblem = diagnose(fields)
  if (fieldProblem !== undefined) throw refuse(normalised, fieldProblem.reason, fieldProblem.cause)
  try {
    parseUtc(normalised)
  } catch (err) {
    // Every field is fine alone, so the combination is impossible (e.g. 30 February).
    throw refuse(normalised, `it never fires: ${messageOf(err)}`, err)
  }
  const now = options.now ?? Date.now()
  if (nextAfter(normalised, now) === undefined) {
    throw refuse(normalised, 'it never fires (no matching time in the coming decades)')
  }
  return { source: normalised, nextAfter: (timeMs) => nextAfter(normalised, timeMs) }
}
