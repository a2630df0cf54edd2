import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { createClient } from '@svcdb/client'
import { describe, expect, it } from 'vitest'
import { svcdb, useFixture } from './cli-harness'

const fx = useFixture()

const run = (args: string[]) => svcdb(args, { env: fx.env, cwd: fx.work })

// What changed from snapshot s1 to HEAD, as git's name-status prints it.
const EXPECTED = [
  'M /dd/a.txt',
  'D /dd/b.txt',
  'A /dd/c.txt',
  'D /kind', // a file, then a directory at the same path: deleted, then added
  'A /kind',
  'A /newdir',
  'D /old',
].join('\n')

describe('svcdb diff (built binary, live server)', () => {
  it('prints one A/M/D line per change from a snapshot to HEAD or to another version', async () => {
    const client = createClient({ baseUrl: fx.url, apiKey: fx.rootApiKey })
    for (const path of ['/dd/a.txt', '/dd/b.txt', '/old/x.txt', '/kind', '/same.txt'])
      await client.files.write(path, 'v1')
    await client.versions.snapshots.create('s1')
    await client.files.write('/dd/a.txt', 'v2')
    await client.files.delete('/dd/b.txt')
    await client.files.write('/dd/c.txt', 'new')
    await client.files.write('/newdir/y.txt', 'new')
    await client.files.delete('/old', { recursive: true })
    await client.files.delete('/kind')
    await client.files.write('/kind/inner.txt', 'now a directory')
    await client.versions.snapshots.create('s2')

    const toHead = await run(['diff', 's1'])
    expect(toHead.code, toHead.stderr).toBe(0)
    expect(toHead.stdout).toBe(`${EXPECTED}\n`)
    expect((await run(['diff', 's1', 's2'])).stdout).toBe(`${EXPECTED}\n`)
    expect((await run(['diff', 's1', '--to', 's2'])).stdout).toBe(`${EXPECTED}\n`)

    // The other way round: additions become deletions.
    const back = await run(['diff', 's2', 's1'])
    expect(back.stdout.split('\n')).toContain('D /newdir')
    expect(back.stdout.split('\n')).toContain('A /old')
    expect(back.stdout.split('\n')).toContain('M /dd/a.txt')
    expect((await run(['diff', 's2', 's2'])).stdout).toBe('')

    const json = await run(['diff', 's1', 's2', '--json'])
    const parsed = JSON.parse(json.stdout) as { from: string; to: string; items: unknown[] }
    expect(parsed.from).toBe('s1')
    expect(parsed.to).toBe('s2')
    expect(parsed.items[0]).toEqual({ path: '/dd/a.txt', change: 'modified', type: 'file' })
    expect(parsed.items).toContainEqual({ path: '/newdir', change: 'added', type: 'directory' })
    expect(parsed.items).toHaveLength(7)
  })

  it('writes the .svcdb patch with --patch FILE (or -o FILE)', async () => {
    const patch = join(fx.work, 'p.svcdb')
    const written = await run(['diff', 's1', 's2', '--patch', patch, '--json'])
    expect(written.code, written.stderr).toBe(0)
    expect(JSON.parse(written.stdout)).toMatchObject({ file: patch, size: expect.any(Number) })
    expect((await readFile(patch)).subarray(0, 5).toString()).toBe('SVCDB')
    const again = join(fx.work, 'o.svcdb')
    expect((await run(['diff', 's1', 's2', '-o', again])).code).toBe(0)
    // The same patch but for the creation time in its header.
    expect((await readFile(again)).length).toBe((await readFile(patch)).length)
  })

  it('refuses a bad command line (2) and names an unknown version (3)', async () => {
    expect((await run(['diff', 's1', 's2', '--to', 's2'])).code).toBe(2)
    expect((await run(['diff', 's1', '--patch', 'a', '-o', 'b'])).code).toBe(2)
    expect((await run(['diff'])).code).toBe(2)
    const unknown = await run(['diff', 'no-such-snapshot'])
    expect(unknown.code).toBe(3)
    expect(unknown.stderr).toContain('no-such-snapshot')
  })

  it('lists the same changes offline from a stopped data directory', async () => {
    await fx.stop()
    const offline = await run(['diff', 's1', 's2', '--data', fx.dataDir])
    expect(offline.code, offline.stderr).toBe(0)
    expect(offline.stdout).toBe(`${EXPECTED}\n`)
  })
})
