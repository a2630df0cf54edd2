import { errorBodySchema } from '@svcdb/contract'
import { randomBytes } from 'node:crypto'
import * as v from 'valibot'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { disabledAuthenticator } from '../../routing/principal'
import { versionRouteHandlers } from './version-route-handlers'
import { startTestApp } from '../../../test/kit'
import type { TestApp } from '../../../test/kit'

let a: TestApp
let b: TestApp

beforeEach(async () => {
  const options = { authenticator: disabledAuthenticator }
  a = await startTestApp(versionRouteHandlers, options)
  b = await startTestApp(versionRouteHandlers, options)
})
afterEach(async () => {
  await a.close()
  await b.close()
})

/** The 32-byte ids of a `GET /versions/chunks` answer, as hex. */
async function listed(res: Response): Promise<string[]> {
  expect(res.status).toBe(200)
  expect(res.headers.get('content-type')).toBe('application/octet-stream')
  const bytes = Buffer.from(await res.arrayBuffer())
  expect(bytes.length % 32).toBe(0)
  const ids: string[] = []
  for (let at = 0; at < bytes.length; at += 32)
    ids.push(bytes.subarray(at, at + 32).toString('hex'))
  return ids
}

const OCTETS = { 'content-type': 'application/octet-stream' }
const post = (app: TestApp, path: string, body?: Uint8Array<ArrayBuffer>) =>
  app.app.request(path, {
    method: 'POST',
    ...(body === undefined ? {} : { body, headers: OCTETS }),
  })

describe('archives that leave out the chunks the caller holds', () => {
  it('lists the chunks of an export and of a patch, naming the version', async () => {
    await a.db.writeFile('/one.bin', randomBytes(300_000))
    const v1 = a.db.head()
    await a.db.writeFile('/two.bin', randomBytes(200_000))
    const all = await a.app.request('/versions/chunks')
    expect(all.headers.get('svcdb-version')).toBe(a.db.head())
    const allIds = await listed(all)
    const patchIds = await listed(await a.app.request(`/versions/chunks?from=${v1}`))
    expect(patchIds.length).toBeGreaterThan(0)
    expect(allIds).toEqual(expect.arrayContaining(patchIds))
    expect(allIds.length).toBeGreaterThan(patchIds.length)
    const old = await a.app.request(`/versions/chunks?to=${v1}`)
    expect(old.headers.get('svcdb-version')).toBe(v1)
    expect(await listed(old)).toHaveLength(allIds.length - patchIds.length)
  })

  it('sends a smaller export or patch that the holder imports whole', async () => {
    const shared = randomBytes(500_000)
    await a.db.writeFile('/base.txt', 'base')
    const v1 = a.db.head()
    await a.db.writeFile('/data/shared.bin', shared)
    await a.db.writeFile('/data/own.bin', randomBytes(50_000))
    await b.db.importArchive(a.db.exportArchive({ version: v1 }), { promote: true })
    await b.db.writeFile('/mine/same.bin', shared)
    const ids = await listed(await a.app.request(`/versions/chunks?from=${v1}`))
    const missing = new Set(await b.db.missingChunks(ids))
    const held = ids.filter((id) => !missing.has(id))
    expect(held.length).toBeGreaterThan(0)
    const body = Buffer.from(held.join(''), 'hex')

    const whole = Buffer.from(await (await post(a, `/versions/diff?from=${v1}`)).arrayBuffer())
    const lean = await post(a, `/versions/diff?from=${v1}`, body)
    expect(lean.status).toBe(200)
    const patch = Buffer.from(await lean.arrayBuffer())
    expect(whole.length - patch.length).toBeGreaterThanOrEqual(490_000)
    const leanExport = await post(a, '/versions/export', body)
    expect(leanExport.status).toBe(200)
    expect((await leanExport.arrayBuffer()).byteLength).toBeLessThan(whole.length)

    // b holds v1 as HEAD but has its own write on top: force the patch, keep it as a version.
    const result = await b.db.importArchive(patch, { force: true })
    expect(result.versionHash).toBe(a.db.head())
    expect(
      Buffer.from(await b.db.at(a.db.head()).readFile('/data/shared.bin')).equals(
        Buffer.from(shared),
      ),
    ).toBe(true)
  })

  it('refuses a body that is not whole ids, and a version that is not stored', async () => {
    await a.db.writeFile('/x.txt', 'x')
    for (const path of ['/versions/export', `/versions/diff?from=${a.db.head()}`]) {
      const res = await post(a, path, new Uint8Array(33))
      expect(res.status).toBe(400)
      const body = v.parse(errorBodySchema, await res.json())
      expect(body.error.code).toBe('BAD_REQUEST')
      expect(body.error.message).toContain('32-byte ids')
    }
    // Another body is none of its business: the spec's export takes none.
    const json = await a.app.request('/versions/export', {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json' },
    })
    expect(json.status).toBe(200)
    expect(json.headers.get('svcdb-version')).toBe(a.db.head())
    const unknown = await a.app.request(`/versions/chunks?from=${'ab'.repeat(32)}`)
    expect(unknown.status).toBe(404)
    expect(v.parse(errorBodySchema, await unknown.json()).error.code).toBe('NOT_FOUND')
    expect(Buffer.from(await a.db.readFile('/x.txt')).toString()).toBe('x')
  })
})
