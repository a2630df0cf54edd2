import { Database } from '@svcdb/engine'
import { afterEach, describe, expect, it } from 'vitest'
import { startServerProcess } from '../kit/server-process'
import type { ServerProcess } from '../kit/server-process'

let server: ServerProcess | undefined

afterEach(async () => {
  await server?.dispose()
  server = undefined
})

describe('POST /auth/magic-link flooded from one client over loopback', () => {
  it('answers 429 after the per-client limit and stores a record per allowed request only', async () => {
    server = await startServerProcess(['--dev'])
    const { url } = server
    const statuses: number[] = []
    for (let i = 0; i < 150; i++) {
      const res = await fetch(`${url}/auth/magic-link`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: `flood-${i}@example.com` }),
      })
      statuses.push(res.status)
      if (res.status === 429) {
        const body = (await res.json()) as { error: { code: string } }
        expect(body.error.code).toBe('RATE_LIMITED')
        expect(res.headers.get('retry-after')).toMatch(/^\d+$/)
      } else await res.body?.cancel()
    }
    // 20 a minute in a burst, then one every 3 s while the flood lasts (seconds, not minutes).
    const allowed = statuses.filter((s) => s === 200).length
    expect(allowed).toBeGreaterThanOrEqual(20)
    expect(allowed).toBeLessThan(75)
    expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([])
    await server.stop()
    const db = await Database.open({ path: server.dataDir })
    try {
      expect((await db.systemStore('auth').entries('rate/')).length).toBe(allowed)
    } finally {
      await db.close()
    }
  }, 60_000)
})
