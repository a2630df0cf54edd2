import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { collect, openMemoryDatabase, rejectsWith } from '../../test/engine-test-kit'
import type { Database } from '../database'
import { parseIndexConfig } from '../indexes/index-config'
import { createEventLoopYield } from '../internal/event-loop-yield'
import { MAX_GLOB_LENGTH } from '../path/glob-limits'

describe('listing globs', () => {
  let db: Database
  beforeEach(async () => {
    db = (await openMemoryDatabase()).db
    for (let i = 1; i <= 30; i++) await db.writeFile(`/d/${i}/f.txt`, String(i))
  })
  afterEach(() => db.close())

  it('refuses a brace bomb with INVALID_INPUT before reading anything', async () => {
    const bomb = collect(db.list('/d', { depth: -1, glob: '{1..20}{1..20}{1..20}*' }))
    const err = await rejectsWith(bomb, 'INVALID_INPUT')
    expect(err.message).toMatch(/expands to 8000 patterns.*at most 64/)
    await rejectsWith(collect(db.list('/nowhere', { glob: '{a,b}'.repeat(12) })), 'INVALID_INPUT')
  })

  it('refuses an overlong glob with INVALID_INPUT', async () => {
    const err = await rejectsWith(
      collect(db.list('/d', { glob: 'x'.repeat(MAX_GLOB_LENGTH + 1) })),
      'INVALID_INPUT',
    )
    expect(err.message).toMatch(/at most 256/)
  })

  it('matches with a glob of up to 64 alternatives', async () => {
    const listed = await collect(db.list('/d', { depth: -1, glob: '{1..64}/f.txt', limit: 3 }))
    expect(listed.map((e) => e.path)).toEqual(['/d/1/f.txt', '/d/10/f.txt', '/d/11/f.txt'])
  })

  it('refuses index configurations whose glob is over the limits', () => {
    const config = (glob: string) => JSON.stringify({ glob, indexes: [] })
    expect(() => parseIndexConfig(config('{a,b}'.repeat(7)))).toThrow(/more than 64 patterns/)
    expect(() => parseIndexConfig(config('*'.repeat(MAX_GLOB_LENGTH + 1)))).toThrow(/256/)
    expect(parseIndexConfig(config('**/*.{json,txt}')).glob).toBe('**/*.{json,txt}')
  })
})

describe('createEventLoopYield', () => {
  it('lets queued callbacks run once its slice is spent', async () => {
    const pause = createEventLoopYield(0)
    let ran = false
    setImmediate(() => {
      ran = true
    })
    await pause()
    expect(ran).toBe(true)
  })

  it('costs no turn within its slice', async () => {
    const pause = createEventLoopYield(60_000)
    let ran = false
    const pending = new Promise<void>((resolve) =>
      setImmediate(() => {
        ran = true
        resolve()
      }),
    )
    await pause()
    expect(ran).toBe(false)
    await pending
  })
})
