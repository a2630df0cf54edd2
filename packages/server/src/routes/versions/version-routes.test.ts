import { errorBodySchema, importResultSchema, MAX_IMPORT_BYTES } from '@svcdb/contract'
import type { Database } from '@svcdb/engine'
import * as v from 'valibot'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { disabledAuthenticator } from '../../routing/principal'
import { versionRouteHandlers } from './version-route-handlers'
import { startTestApp } from '../../../test/kit'
import type { TestApp } from '../../../test/kit'

let sourceKit: TestApp
let targetKit: TestApp
let source: Database
let target: Database
const appFor = (db: Database) => (db === source ? sourceKit : targetKit).app

beforeEach(async () => {
  const options = { authenticator: disabledAuthenticator }
  sourceKit = await startTestApp(versionRouteHandlers, options)
  targetKit = await startTestApp(versionRouteHandlers, options)
  source = sourceKit.db
  target = targetKit.db
})
afterEach(async () => {
  await sourceKit.close()
  await targetKit.close()
})

async function errorCode(res: Response, status: number): Promise<string> {
  expect(res.status).toBe(status)
  return v.parse(errorBodySchema, await res.json()).error.code
}

describe('version routes', () => {
  it('exports, imports, diffs and promotes over HTTP', async () => {
    const a = appFor(source)
    const b = appFor(target)
    await source.writeFile('/doc.txt', 'one')
    await source.snapshots.create('v1')
    const v1 = source.head()

    const exported = await a.request('/versions/export?snapshot=v1', { method: 'POST' })
    expect(exported.status).toBe(200)
    expect(exported.headers.get('content-type')).toBe('application/octet-stream')
    expect(exported.headers.get('content-disposition')).toBe(
      `attachment; filename="export-${v1.slice(0, 12)}.svcdb"`,
    )
    const archive = new Uint8Array(await exported.arrayBuffer())

    const imported = await b.request('/versions/import?promote=true', {
      method: 'POST',
      body: archive,
    })
    expect(imported.status).toBe(200)
    const result = v.parse(importResultSchema, await imported.json())
    expect(result).toMatchObject({
      status: 'imported',
      backup_type: 'export',
      version_hash: v1,
      head_promoted: true,
    })
    expect(target.head()).toBe(v1)

    await source.writeFile('/doc.txt', 'two')
    const diff = await a.request('/versions/diff?from=v1', { method: 'POST' })
    expect(diff.headers.get('content-disposition')).toBe(
      `attachment; filename="patch-${source.head().slice(0, 12)}.svcdb"`,
    )
    const patch = new Uint8Array(await diff.arrayBuffer())
    const patched = v.parse(
      importResultSchema,
      await (await b.request('/versions/import', { method: 'POST', body: patch })).json(),
    )
    expect(patched).toMatchObject({ backup_type: 'patch', head_promoted: false })
    const promoted = await b.request(`/versions/promote?hash=${patched.version_hash}`, {
      method: 'POST',
    })
    expect(await promoted.json()).toEqual({ status: 'promoted', head: source.head() })
    expect(new TextDecoder().decode(await target.readFile('/doc.txt'))).toBe('two')
  })

  it('answers the spec statuses for bad input and leaves the database as it was', async () => {
    const a = appFor(source)
    const b = appFor(target)
    await source.writeFile('/x', 'x')
    const head = target.head()
    const archive = new Uint8Array(
      await (await a.request('/versions/export', { method: 'POST' })).arrayBuffer(),
    )
    expect(
      await errorCode(
        await b.request('/versions/import', { method: 'POST', body: archive.slice(0, -1) }),
        400,
      ),
    ).toBe('BAD_REQUEST')
    expect(
      await errorCode(await b.request('/versions/import', { method: 'POST', body: 'junk' }), 400),
    ).toBe('BAD_REQUEST')
    const tooBig = new Uint8Array(MAX_IMPORT_BYTES + 1)
    expect(
      await errorCode(await b.request('/versions/import', { method: 'POST', body: tooBig }), 413),
    ).toBe('PAYLOAD_TOO_LARGE')
    // A patch on a database at another version is refused unless forced.
    await source.snapshots.create('base')
    await source.writeFile('/y', 'y')
    const patch = new Uint8Array(
      await (await a.request('/versions/diff?from=base', { method: 'POST' })).arrayBuffer(),
    )
    expect(
      await errorCode(await b.request('/versions/import', { method: 'POST', body: patch }), 400),
    ).toBe('BAD_REQUEST')
    expect(target.head()).toBe(head)

    expect(
      await errorCode(await b.request('/versions/promote?hash=xyz', { method: 'POST' }), 400),
    ).toBe('BAD_REQUEST')
    expect(
      await errorCode(
        await b.request(`/versions/promote?hash=${'0'.repeat(64)}`, { method: 'POST' }),
        404,
      ),
    ).toBe('NOT_FOUND')
    expect(await errorCode(await b.request('/versions/promote', { method: 'POST' }), 400)).toBe(
      'VALIDATION_FAILED',
    )
    expect(
      await errorCode(await a.request('/versions/export?snapshot=nope', { method: 'POST' }), 404),
    ).toBe('NOT_FOUND')
    expect(
      await errorCode(
        await a.request(`/versions/export?hash=${'1'.repeat(64)}`, { method: 'POST' }),
        404,
      ),
    ).toBe('NOT_FOUND')
    expect(
      await errorCode(await a.request('/versions/export?hash=zz', { method: 'POST' }), 400),
    ).toBe('BAD_REQUEST')
    expect(await errorCode(await a.request('/versions/diff', { method: 'POST' }), 400)).toBe(
      'VALIDATION_FAILED',
    )
    expect(
      await errorCode(await a.request('/versions/diff?from=missing', { method: 'POST' }), 404),
    ).toBe('NOT_FOUND')
    expect(target.head()).toBe(head)
  })
})
