import { describe, expect, it } from 'vitest'
import { isSchedulerError, type SchedulerError } from './errors'
import { parseTaskArgs } from './task-args'

function refused(taskType: string, args: unknown): SchedulerError {
  try {
    parseTaskArgs(taskType, args)
  } catch (err) {
    if (isSchedulerError(err, 'INVALID_ARGS')) return err
    throw err
  }
  throw new Error(`expected ${JSON.stringify(args)} to be refused for ${taskType}`)
}

describe('parseTaskArgs', () => {
  it('takes a reindex path', () => {
    expect(parseTaskArgs('reindex', { path: '/docs' })).toEqual({ path: '/docs' })
  })

  it('refuses a reindex without a usable path', () => {
    expect(refused('reindex', {}).issues).toEqual([{ path: 'path', message: expect.any(String) }])
    expect(refused('reindex', { path: '' }).message).toMatch(/path: must not be empty/)
    expect(refused('reindex', { path: 'a\0b' }).message).toMatch(/NUL/)
    expect(refused('reindex', { path: 7 }).message).toMatch(
      /^invalid arguments for a reindex task: path: /,
    )
  })

  it('defaults gc dry_run to false and keeps a given one', () => {
    expect(parseTaskArgs('gc', {})).toEqual({ dry_run: false })
    expect(parseTaskArgs('gc', { dry_run: true })).toEqual({ dry_run: true })
    expect(refused('gc', { dry_run: 'yes' }).issues?.[0]?.path).toBe('dry_run')
  })

  it('takes backup args, all optional, without adding absent ones', () => {
    expect(parseTaskArgs('backup', {})).toEqual({})
    expect(Object.keys(parseTaskArgs('backup', {}))).toEqual([])
    expect(parseTaskArgs('backup', { snapshot: 'nightly', dir: '/b', keep: 7 })).toEqual({
      snapshot: 'nightly',
      dir: '/b',
      keep: 7,
    })
  })

  it.each([
    [{ keep: 0 }, 'keep: must be at least 1'],
    [{ keep: 2.5 }, 'keep: must be a whole number'],
    [{ keep: 100_001 }, 'keep: must be at most 100000'],
    [{ keep: '3' }, 'keep: '],
    [{ snapshot: '' }, 'snapshot: must not be empty'],
    [{ dir: '' }, 'dir: must not be empty'],
    [{ snapshot: 'x'.repeat(256) }, 'snapshot: '],
  ])('refuses backup args %j', (args, message) => {
    expect(refused('backup', args).message).toContain(message)
  })

  it('refuses unknown fields of built-in types, naming them', () => {
    const err = refused('gc', { dry_run: true, dryrun: false })
    expect(err.issues?.map((i) => i.path)).toEqual(['dryrun'])
  })

  it('reports every problem at once', () => {
    expect(refused('backup', { keep: 0, dir: '' }).issues).toHaveLength(2)
  })

  it.each([[null], [[]], ['gc'], [3], [undefined]])(
    'refuses %j as the arguments object',
    (args) => {
      expect(refused('gc', args).code).toBe('INVALID_ARGS')
      expect(refused('custom', args).message).toMatch(/must be a JSON object/)
    },
  )

  it('takes any JSON object for other task types, as a copy', () => {
    const args = { a: [1, { b: null }], c: 'x' }
    const parsed = parseTaskArgs('custom', args)
    expect(parsed).toEqual(args)
    expect(parsed).not.toBe(args)
  })

  it.each([
    [{ n: Number.NaN }, 'n: must be a finite number'],
    [{ d: new Date(0) }, 'd: must be a plain JSON object'],
    [{ list: [1, () => 1] }, 'list.1: a function is not JSON'],
    [{ u: undefined }, 'u: a undefined is not JSON'],
  ])('refuses non-JSON values for other task types: %j', (args, message) => {
    expect(refused('custom', args).message).toContain(message)
  })
})
