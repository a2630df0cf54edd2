import { listingSchema } from '@svcdb/contract'
import { MAX_GLOB_LENGTH } from '@svcdb/engine'
import * as v from 'valibot'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { errorOf, startTestApp } from '../../../test/kit'
import type { TestApp } from '../../../test/kit'
import { fileRouteHandlers } from './file-route-handlers'

let kit: TestApp
let link: ReturnType<TestApp['as']>

beforeEach(async () => {
  kit = await startTestApp((deps) => fileRouteHandlers(deps))
  for (let d = 1; d <= 20; d++)
    for (let f = 1; f <= 10; f++) await kit.db.writeFile(`/pub/${d}/${f}.txt`, `${d}-${f}`)
  await kit.db.writeFile('/pub/1/notes.json', '{}')
  // The weakest credential that may list: a read-only share link.
  const created = await kit.auth.shares.createLink({ paths: ['/pub'], permissions: '-r--l---' })
  link = kit.as((await kit.auth.exchangeApiKey(created.key)).token)
})
afterEach(() => kit.close())

const list = (glob: string) => link(`/files/pub/?depth=-1&glob=${encodeURIComponent(glob)}`)

describe('listing globs (issue 23, item 8)', () => {
  it('refuses a brace bomb from a read-only share link with 400, before any walk', async () => {
    for (const bomb of ['{1..20}{1..20}{1..20}*', '{a,b}'.repeat(12), '{1..99999999}']) {
      const error = await errorOf(await list(bomb), 400)
      expect(error.code).toBe('BAD_REQUEST')
      expect(error.message).toMatch(/at most 64 are allowed/)
    }
  })

  it('refuses an overlong glob with 400', async () => {
    const error = await errorOf(await list(`${'*'.repeat(MAX_GLOB_LENGTH)}a`), 400)
    expect(error.code).toBe('VALIDATION_FAILED')
    expect(error.message).toMatch(/at most 256 characters/)
  })

  it('still lists with globs within the limits', async () => {
    const res = await list('{1,2}/{1..3}.txt')
    expect(res.status).toBe(200)
    const page = v.parse(listingSchema, await res.json())
    expect(page.items.map((i) => i.path)).toEqual([
      '/pub/1/1.txt',
      '/pub/1/2.txt',
      '/pub/1/3.txt',
      '/pub/2/1.txt',
      '/pub/2/2.txt',
      '/pub/2/3.txt',
    ])
    const json = v.parse(listingSchema, await (await list('**/*.json')).json())
    expect(json.items.map((i) => i.path)).toEqual(['/pub/1/notes.json'])
  })
})
