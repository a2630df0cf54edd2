import { randomBytes } from 'node:crypto'
import { mkdtemp, readdir, rm, unlink } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Database } from '@svcdb/engine'
import { afterEach, describe, expect, it } from 'vitest'
import { startFixture, svcdb } from './cli-harness'

describe('svcdb repair', () => {
  let dir: string | undefined
  afterEach(async () => {
    if (dir !== undefined) await rm(dir, { recursive: true, force: true })
    dir = undefined
  })

  it('brings back a data directory whose meta/CURRENT is gone, only when asked', async () => {
    dir = await mkdtemp(join(tmpdir(), 'svcdb-cli-repair-'))
    const big = randomBytes(100_000)
    const db = await Database.open({ path: dir })
    await db.writeFile('/big.bin', big)
    await db.writeFile('/small.txt', 'small')
    await db.close()
    // A reopen writes LevelDB's log into a table.
    await (await Database.open({ path: dir })).close()
    await unlink(join(dir, 'meta', 'CURRENT'))

    const refused = await svcdb(['verify', '--data', dir])
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain('meta/CURRENT')
    expect(refused.stderr).toContain(`svcdb repair --data ${dir}`)
    expect(await readdir(join(dir, 'meta'))).not.toContain('CURRENT')

    const repaired = await svcdb(['repair', '--data', dir])
    expect(repaired.code, repaired.stderr).toBe(0)
    expect(repaired.stdout).toMatch(/^repaired: HEAD is [0-9a-f]{64}$/m)
    expect(repaired.stdout).toMatch(/^ok: \d+ objects and chunks checked$/m)
    const verified = await svcdb(['verify', '--data', dir, '--json'])
    expect(JSON.parse(verified.stdout)).toMatchObject({ ok: true })
    const reopened = await Database.open({ path: dir })
    expect(Buffer.from(await reopened.readFile('/big.bin')).equals(big)).toBe(true)
    expect(new TextDecoder().decode(await reopened.readFile('/small.txt'))).toBe('small')
    await reopened.close()
  })

  it('refuses a directory a running server holds, and a missing --data', async () => {
    const local = await startFixture()
    try {
      // The lock probe leaves the traces of any LevelDB open: its info log is rotated.
      const files = async () =>
        (await readdir(join(local.dataDir, 'meta'))).filter((n) => !n.startsWith('LOG')).sort()
      const before = await files()
      const busy = await svcdb(['repair', '--data', local.dataDir])
      expect(busy.code).toBe(1)
      expect(busy.stderr).toContain('in use by a running server')
      expect(await files()).toEqual(before)
      expect((await svcdb(['repair'])).code).toBe(2)
    } finally {
      await local.dispose()
    }
  })
})
