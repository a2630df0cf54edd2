import { createHash } from 'node:crypto'
import { readFile, stat, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFixture, svcdb } from './cli-harness'
import type { CliFixture } from './cli-harness'

const MIB = 1024 * 1024
let fx: CliFixture
let other: CliFixture

beforeAll(async () => {
  ;[fx, other] = await Promise.all([startFixture(), startFixture()])
}, 30_000)
afterAll(async () => {
  await fx?.dispose()
  await other?.dispose()
})

/** Incompressible, deterministic bytes (xorshift), so the archive is as large as the data. */
function filler(size: number, seed: number): Buffer {
  const out = Buffer.alloc(size)
  let x = seed >>> 0 || 1
  for (let i = 0; i < size; i += 4) {
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    out.writeUInt32LE(x >>> 0, i)
  }
  return out
}

const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

async function json(args: string[], target: CliFixture): Promise<Record<string, unknown>> {
  const result = await svcdb([...args, '--json'], { env: target.env, cwd: fx.work })
  expect(result.code, result.stderr).toBe(0)
  return JSON.parse(result.stdout) as Record<string, unknown>
}

describe('svcdb import of archives over the 10 MiB import body (built binary, live servers)', () => {
  it('imports a 40 MiB export into another running server, and a 12 MiB patch after it', async () => {
    const big = filler(40 * MIB, 7)
    const local = join(fx.work, 'big.bin')
    await writeFile(local, big)
    expect((await svcdb(['put', local, '/data/big.bin'], { env: fx.env })).code).toBe(0)
    await json(['snapshot', 'create', 'base'], fx)
    const archive = join(fx.work, 'big.svcdb')
    await json(['export', '-o', archive], fx)
    expect((await stat(archive)).size).toBeGreaterThan(40 * MIB)

    const imported = await json(['import', archive, '--promote'], other)
    expect(imported).toMatchObject({ backup_type: 'export', head_promoted: true })
    const copy = join(fx.work, 'copy.bin')
    expect((await svcdb(['get', '/data/big.bin', copy], { env: other.env })).code).toBe(0)
    expect(sha(await readFile(copy))).toBe(sha(big))

    // A patch applies to HEAD: staging must not move HEAD away from the patch's base.
    await writeFile(local, filler(12 * MIB, 9))
    expect((await svcdb(['put', local, '/data/more.bin'], { env: fx.env })).code).toBe(0)
    const patch = join(fx.work, 'more.svcdb')
    await json(['diff', 'base', '-o', patch], fx)
    expect((await stat(patch)).size).toBeGreaterThan(10 * MIB)
    const patched = await json(['import', patch, '--promote'], other)
    expect(patched).toMatchObject({ backup_type: 'patch', head_promoted: true })
    expect((await json(['stat', '/data/more.bin'], other)).size).toBe(12 * MIB)

    // Nothing staged is left behind: no fork, no staging file.
    expect(await json(['fork', 'list'], other)).toEqual([])
    const staging = await svcdb(['ls', '/.svcdb/staging'], { env: other.env })
    expect(staging.stdout.trim()).toBe('')
  }, 180_000)

  it('import --data seeds a database in a directory that does not exist yet', async () => {
    await svcdb(['put', '-', '/seed.txt', '--stream'], { env: fx.env, stdin: 'seeded' })
    const archive = join(fx.work, 'seed.svcdb')
    await json(['export', '-o', archive], fx)
    const fresh = join(fx.work, 'fresh', 'db')
    const seeded = await json(['import', archive, '--promote', '--data', fresh], fx)
    expect(seeded).toMatchObject({ backup_type: 'export', head_promoted: true })
    expect((await svcdb(['verify', '--data', fresh], { env: fx.env })).code).toBe(0)

    // A failed seed leaves no directory behind.
    const corrupt = await readFile(archive)
    corrupt[2] = (corrupt[2] as number) ^ 0xff
    await writeFile(archive, corrupt)
    const failed = join(fx.work, 'failed', 'db')
    const result = await svcdb(['import', archive, '--data', failed], { env: fx.env })
    expect(result.code).not.toBe(0)
    await expect(stat(failed)).rejects.toMatchObject({ code: 'ENOENT' })
  }, 60_000)
})
