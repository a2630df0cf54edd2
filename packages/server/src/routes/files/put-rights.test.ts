import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { fileRouteHandlers } from './file-route-handlers'
import { errorCode, startTestApp } from '../../../test/kit'
import type { TestApp } from '../../../test/kit'

let kit: TestApp

beforeEach(async () => {
  kit = await startTestApp((deps) => fileRouteHandlers(deps))
})
afterEach(() => kit.close())

/** Requests as a key holding `rules`. */
async function keyWith(rules: Record<string, string>): Promise<ReturnType<TestApp['as']>> {
  const root = await kit.auth.authenticate(kit.rootToken)
  const key = await kit.auth.keys.create(root, { rules: [rules] })
  return kit.as((await kit.auth.exchangeApiKey(key.key)).token)
}

const put = (body: string, headers: Record<string, string> = {}) => ({
  method: 'PUT',
  body,
  headers: { 'content-type': 'text/plain', ...headers },
})

describe('PUT /files rights', () => {
  it('lets a create-only key add files but not replace them', async () => {
    await kit.db.writeFile('/in/old.txt', 'old')
    const key = await keyWith({ '/in/**': 'cr--l---' })
    expect((await key('/files/in/new.txt', put('new'))).status).toBe(201)
    expect(await errorCode(await key('/files/in/old.txt', put('x')), 404)).toBe('NOT_FOUND')
    expect(new TextDecoder().decode(await kit.db.readFile('/in/old.txt'))).toBe('old')
  })

  it('lets an update-only key replace files but not add them', async () => {
    await kit.db.writeFile('/in/old.txt', 'old')
    const key = await keyWith({ '/in/**': '-ru-l---' })
    expect((await key('/files/in/old.txt', put('newer'))).status).toBe(200)
    expect(await errorCode(await key('/files/in/new.txt', put('x')), 404)).toBe('NOT_FOUND')
    expect(new TextDecoder().decode(await kit.db.readFile('/in/old.txt'))).toBe('newer')
  })

  it('answers a key holding both rights 201 or 200 by what was there, 409 over a directory', async () => {
    const key = await keyWith({ '/in/**': 'cru-l---' })
    expect((await key('/files/in/a.txt', put('a'))).status).toBe(201)
    expect((await key('/files/in/a.txt', put('b'))).status).toBe(200)
    await kit.db.mkdir('/in/dir')
    expect(await errorCode(await key('/files/in/dir', put('x')), 409)).toBe('CONFLICT')
    expect(
      await errorCode(await key('/files/in/a.txt', put('c', { 'if-none-match': '*' })), 412),
    ).toBe('PRECONDITION_FAILED')
  })

  it('still needs configure (y) to write configuration with both rights', async () => {
    const key = await keyWith({ '/**': 'cru-l---' })
    const config = JSON.stringify({ indexes: [{ field: '/status', type: 'string' }] })
    const refused = await key('/files/docs/.svcdb/indexes.json', put(config))
    expect([403, 404]).toContain(refused.status)
  })

  it('does not tell a key without rights that a file stands where a parent should be', async () => {
    await kit.db.writeFile('/secret', 'a file')
    const key = await keyWith({ '/in/**': 'cr--l---' })
    // Without rights there, the key learns nothing: 404, as for any path it may not write.
    expect(await errorCode(await key('/files/secret/inside.txt', put('x')), 404)).toBe('NOT_FOUND')
    const links = await key('/links/secret/link', {
      method: 'PUT',
      body: JSON.stringify({ target: '/in/x' }),
      headers: { 'content-type': 'application/json' },
    })
    expect(await errorCode(links, 404)).toBe('NOT_FOUND')
    // With them, the engine refuses the write itself.
    const writer = await keyWith({ '/**': 'cr--l---' })
    expect(await errorCode(await writer('/files/secret/inside.txt', put('x')), 400)).toBe(
      'BAD_REQUEST',
    )
  })
})
