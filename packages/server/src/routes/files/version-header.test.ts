import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { identityRoutes, startTestApp } from '../../../test/kit'
import type { TestApp } from '../../../test/kit'
import { ARCHIVE_VERSION_HEADER } from '../versions/archive-response'
import { fileRouteHandlers } from './file-route-handlers'
import { SMALL_FILE_BYTES } from './file-read'

let kit: TestApp
let root: ReturnType<TestApp['as']>

beforeEach(async () => {
  kit = await startTestApp((deps) => [...identityRoutes(deps), ...fileRouteHandlers(deps)])
  root = kit.as(kit.rootToken)
})
afterEach(() => kit.close())

const versionOf = (res: Response) => res.headers.get(ARCHIVE_VERSION_HEADER)

describe('GET /files names the version it read (svcdb-version)', () => {
  it('is HEAD’s version for bytes, large bytes, a listing, a stat, a HEAD request and a 304', async () => {
    await kit.db.writeFile('/d/a.txt', 'a', { contentType: 'text/plain' })
    const written = await kit.db.writeFile('/d/big.bin', new Uint8Array(SMALL_FILE_BYTES + 1))
    const head = kit.db.head()
    expect(written.version).toBe(head)
    for (const path of ['/d/a.txt', '/d/big.bin', '/d', '/d/a.txt?stat=true', '/?depth=-1']) {
      const res = await root(`/files${path}`)
      expect(res.status, path).toBe(200)
      expect(versionOf(res), path).toBe(head)
      await res.arrayBuffer()
    }
    const bare = await root('/files/d/a.txt', { method: 'HEAD' })
    expect(versionOf(bare)).toBe(head)
    const etag = (await root('/files/d/a.txt')).headers.get('etag') as string
    const unchanged = await root('/files/d/a.txt', { headers: { 'if-none-match': etag } })
    expect(unchanged.status).toBe(304)
    expect(versionOf(unchanged)).toBe(head)
  })

  it('is the version asked for, and a fork’s latest version', async () => {
    const first = (await kit.db.writeFile('/a.txt', 'one')).version
    await kit.db.writeFile('/a.txt', 'two')
    const old = await root(`/files/a.txt?version=${first}`)
    expect(await old.text()).toBe('one')
    expect(versionOf(old)).toBe(first)

    await kit.db.forks.create('side')
    const onFork = (await kit.db.fork('side').writeFile('/b.txt', 'b')).version
    const res = await root('/files/?fork=side&stat=true')
    expect(res.status).toBe(200)
    expect(versionOf(res)).toBe(onFork)
    expect(onFork).not.toBe(kit.db.head())
  })

  it('is absent from refusals and errors, which tell nothing of versions', async () => {
    await kit.db.writeFile('/secret/a.txt', 'a')
    const missing = await root('/files/nowhere.txt')
    expect(missing.status).toBe(404)
    expect(versionOf(missing)).toBeNull()
    const { token } = await kit.userWithToken('eve')
    const refused = await kit.as(token)('/files/secret/a.txt')
    expect([403, 404]).toContain(refused.status)
    expect(versionOf(refused)).toBeNull()
  })
})
