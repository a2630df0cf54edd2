import { CronDate } from 'cron-parser'
import fc from 'fast-check'
import { describe, expect, it, vi } from 'vitest'
import { parseCronExpression } from './cron-expression'
import { isSchedulerError } from './errors'

const NOW = Date.UTC(2026, 0, 1, 12, 0) // a Thursday

function refusal(source: unknown): string {
  try {
    parseCronExpression(source, { now: NOW })
  } catch (err) {
    expect(isSchedulerError(err, 'INVALID_CRON')).toBe(true)
    return (err as Error).message
  }
  throw new Error(`expected ${JSON.stringify(source)} to be refused`)
}

describe('parseCronExpression', () => {
  it.each([
    ['*/15 * * * *', Date.UTC(2026, 0, 1, 12, 15)],
    ['0 3 * * *', Date.UTC(2026, 0, 2, 3, 0)],
    ['30 2 * * 1-5', Date.UTC(2026, 0, 2, 2, 30)],
    ['0 0 1 * *', Date.UTC(2026, 1, 1)],
    ['0 0 * jan,feb mon', Date.UTC(2026, 0, 5)],
    ['0 0 L * *', Date.UTC(2026, 0, 31)],
    ['0 9 * * 1#2', Date.UTC(2026, 0, 12, 9)],
    ['0 0 29 2 *', Date.UTC(2028, 1, 29)],
    ['0 12 * * *', Date.UTC(2026, 0, 2, 12)],
  ])('evaluates %s in UTC', (source, expected) => {
    expect(parseCronExpression(source, { now: NOW }).nextAfter(NOW)).toBe(expected)
  })

  it('fires strictly after the given time, also from a firing time', () => {
    const cron = parseCronExpression('*/5 * * * *', { now: NOW })
    expect(cron.nextAfter(NOW)).toBe(NOW + 5 * 60_000)
    expect(cron.nextAfter(NOW - 1)).toBe(NOW)
    expect(cron.nextAfter(NOW + 1)).toBe(NOW + 5 * 60_000)
  })

  it('normalises whitespace', () => {
    expect(parseCronExpression('  0\t3  * *   * ', { now: NOW }).source).toBe('0 3 * * *')
  })

  it('refuses six fields, saying that seconds are not supported', () => {
    expect(refusal('0 0 3 * * *')).toMatch(/five fields.*got 6.*seconds/)
  })

  it.each([
    ['', /empty/],
    ['* * * *', /five fields.*got 4/],
    ['garbage', /five fields.*got 1/],
    ['1 2 3 4 5 6 7', /got 7/],
    ['@daily', /aliases.*five fields/],
    ['H * * * *', /minute field "H": hashed/],
    ['0 0 * * thu,H', /day-of-week field .*hashed/],
    ['? * * * *', /minute field "\?": "\?" is only allowed/],
    ['x * * * *', /minute field "x"/],
    ['1,,2 * * * *', /minute field "1,,2"/],
    ['5-3 * * * *', /minute field "5-3".*Invalid range/],
    ['*/0 * * * *', /minute field "\*\/0"/],
  ])('refuses %j', (source, message) => {
    expect(refusal(source)).toMatch(message)
  })

  it.each([
    ['60 * * * *', 'minute', '0-59'],
    ['* 24 * * *', 'hour', '0-23'],
    ['* * 32 * *', 'day-of-month', '1-31'],
    ['* * 0 * *', 'day-of-month', '1-31'],
    ['* * * 13 *', 'month', '1-12'],
    ['* * * * 8', 'day-of-week', '0-7'],
  ])('refuses the out-of-range %j naming the %s field', (source, field, range) => {
    const message = refusal(source)
    expect(message).toContain(`${field} field`)
    expect(message).toContain(range)
  })

  it.each(['0 0 30 2 *', '0 0 31 4,6,9,11 *', '0 0 31 2 ?'])(
    'refuses %j, which never fires',
    (source) => {
      expect(refusal(source)).toMatch(/never fires/)
    },
  )

  it('accepts a day-of-month and month pair exactly when that date exists in some year', () => {
    const longest = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    for (const [index, days] of longest.entries()) {
      for (let day = 1; day <= 31; day++) {
        const source = `0 0 ${day} ${index + 1} *`
        if (day <= days) {
          const next = parseCronExpression(source, { now: NOW }).nextAfter(NOW) ?? 0
          expect(new Date(next).getUTCDate()).toBe(day)
          expect(new Date(next).getUTCMonth()).toBe(index)
        } else {
          expect(refusal(source)).toMatch(/never fires/)
        }
      }
    }
  })

  it("keeps cron-parser's error as the cause", () => {
    for (const source of ['60 * * * *', '0 0 30 2 *']) {
      try {
        parseCronExpression(source, { now: NOW })
        throw new Error('expected a refusal')
      } catch (err) {
        expect(isSchedulerError(err, 'INVALID_CRON')).toBe(true)
        expect((err as Error).cause).toBeInstanceOf(Error)
      }
    }
  })

  it('refuses what is not a string', () => {
    expect(refusal(42)).toMatch(/expected a string, got number/)
    expect(refusal(null)).toMatch(/got null/)
  })

  it('refuses very long input without echoing all of it', () => {
    const message = refusal(`${'1,'.repeat(200)}1 * * * *`)
    expect(message).toMatch(/longer than 256/)
    expect(message.length).toBeLessThan(200)
  })
})

/** Tokens of one field: mostly in range, sometimes just outside it or malformed. */
function fieldOf(min: number, max: number, specials: readonly string[]) {
  const value = fc.oneof(
    { weight: 12, arbitrary: fc.integer({ min, max }) },
    { weight: 1, arbitrary: fc.constantFrom(min - 1, max + 1) },
  )
  const token = fc.oneof(
    { weight: 6, arbitrary: fc.constant('*') },
    { weight: 6, arbitrary: value.map(String) },
    {
      weight: 2,
      arbitrary: fc.tuple(value, value).map(([a, b]) => `${Math.min(a, b)}-${Math.max(a, b)}`),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.constantFrom('*', String(min)), fc.integer({ min: 0, max: max + 2 }))
        .map(([a, k]) => `${a}/${k}`),
    },
    { weight: 1, arbitrary: fc.constantFrom('H', '?', 'L', 'W', '#', '-', ...specials) },
  )
  return fc.oneof(
    { weight: 5, arbitrary: token },
    { weight: 1, arbitrary: fc.tuple(token, token).map(([a, b]) => `${a},${b}`) },
  )
}
const fiveFields = fc
  .tuple(
    fieldOf(0, 59, []),
    fieldOf(0, 23, []),
    fieldOf(1, 31, ['L', '?', '15W']),
    fieldOf(1, 12, ['jan', 'feb-mar', 'dec']),
    fieldOf(0, 7, ['mon', 'sun-sat', 'thu', '5L', '1#2', '0#5', '3#6', '?']),
  )
  .map((fields) => fields.join(' '))
const wrongCount = fc
  .array(fc.constantFrom('*', '0', '5', '*/2', '1-3'), { minLength: 0, maxLength: 8 })
  .filter((fields) => fields.length !== 5)
  .map((fields) => fields.join(' '))
const anyText = fc.oneof(fc.string({ maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 40 }))

// cron-parser gives up a search after 10 000 loop iterations (its LOOP_LIMIT), each moving the
// candidate date at most once in UTC. Parsing searches once and the property below twice more.
const SEARCH_STEP_LIMIT = 10_000
const MAX_STEPS_PER_INPUT = 3 * SEARCH_STEP_LIMIT

/**
 * Counts the date moves cron-parser makes while searching for a firing time: a measure of the
 * work done that does not depend on the machine's speed. Past `limit` a move throws, so a search
 * that would never end fails the count instead of hanging the test.
 */
function countSearchSteps(limit: number) {
  const move = CronDate.prototype.applyDateOperation
  let steps = 0
  const spy = vi.spyOn(CronDate.prototype, 'applyDateOperation').mockImplementation(function (
    this: CronDate,
    ...args
  ) {
    steps += 1
    if (steps > limit) throw new Error(`more than ${limit} search steps`)
    move.apply(this, args)
  })
  return {
    get steps() {
      return steps
    },
    /** Starts a new count (and drops the calls the spy recorded, which are not needed). */
    reset() {
      steps = 0
      spy.mockClear()
    },
    restore: () => spy.mockRestore(),
  }
}

describe('parseCronExpression (fuzz)', () => {
  it('either accepts with a future minute-aligned next run, or refuses with INVALID_CRON, in bounded steps', () => {
    let acceptedCount = 0
    const from = fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2090, 0, 1) })
    const search = countSearchSteps(MAX_STEPS_PER_INPUT)
    try {
      fc.assert(
        fc.property(
          fc.oneof(fiveFields, fiveFields, fiveFields, wrongCount, anyText),
          from,
          (source, now) => {
            search.reset()
            let accepted = false
            try {
              const cron = parseCronExpression(source, { now })
              accepted = true
              acceptedCount += 1
              const next = cron.nextAfter(now)
              expect(next).toBeGreaterThan(now)
              expect((next ?? 0) % 60_000).toBe(0)
              const following = cron.nextAfter(next ?? 0)
              if (following !== undefined) expect(following).toBeGreaterThan(next ?? 0)
              expect(cron.source.split(' ')).toHaveLength(5)
            } catch (err) {
              if (accepted) throw err
              expect(isSchedulerError(err, 'INVALID_CRON')).toBe(true)
              expect((err as Error).message).toMatch(/^invalid cron expression /)
            }
            // cron-parser bounds its search; never-firing expressions must not hang.
            expect(search.steps).toBeLessThanOrEqual(MAX_STEPS_PER_INPUT)
          },
        ),
        { numRuns: 1000 },
      )
    } finally {
      search.restore()
    }
    // The generator must reach both outcomes, or the property checks little.
    expect(acceptedCount).toBeGreaterThan(100)
    expect(acceptedCount).toBeLessThan(900)
  }, 20_000)
})
