import { mkdir, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { createClient } from '@svcdb/client'
import { describe, expect, it } from 'vitest'
import { svcdb, useFixture } from './cli-harness'

const fx = useFixture()

const run = (args: string[]) => svcdb(args, { env: fx.env, cwd: fx.work })

/** A local tree: `count` small files over a few directories, one larger file, a symlink. */
async function makeTree(dir: string, count: number): Promise<Map<string, string>> {
  const files = new Map<string, string>()
  for (let i = 0; i < count; i++)
    files.set(`d${i % 5}/f${i}.txt`, `file ${i}\n`.repeat(1 + (i % 9)))
  files.set('big/data.txt', 'a fairly long line of text to fill a few chunks\n'.repeat(20_000))
  files.set('top.txt', 'at the top')
  for (const [rel, text] of files) {
    await mkdir(join(dir, rel, '..'), { recursive: true })
    await writeFile(join(dir, rel), text)
  }
  await symlink(join(dir, 'top.txt'), join(dir, 'link.txt'))
  return files
}

describe('svcdb put -r (built binary, live server)', () => {
  it('uploads a tree as one version, sends nothing twice, and prints JSON when asked', async () => {
    const local = join(fx.work, 'tree')
    const files = await makeTree(local, 60)
    const client = createClient({ baseUrl: fx.url, apiKey: fx.rootApiKey })
    let listed = 0
    const put = await run(['put', '-r', local, 'site', '--json'])
    expect(put.stderr).toBe('')
    expect(put.code).toBe(0)
    const out = JSON.parse(put.stdout) as Record<string, unknown>
    const bytes = [...files.values()].reduce((n, text) => n + Buffer.byteLength(text), 0)
    expect(out).toMatchObject({
      path: '/site',
      files: files.size,
      bytes,
      bytes_sent: expect.any(Number),
      versions: 1,
      skipped: ['link.txt'],
    })
    for (const [rel, text] of files) expect(await client.files.readText(`/site/${rel}`)).toBe(text)
    for await (const entry of client.files.list('/site', { depth: -1 }))
      if (entry.entry_type === 'file') listed++
    expect(listed).toBe(files.size)

    // Again, into another directory: the chunks are all there, only the commit travels.
    const again = JSON.parse((await run(['put', '-r', local, '/copy', '--json'])).stdout) as {
      bytes_sent: number
      version: string
    }
    expect(again.bytes_sent).toBe(0)
    expect(await client.files.readText('/copy/top.txt')).toBe('at the top')

    // Human output: one line naming the version; the skipped symlink noted on stderr.
    const human = await run(['put', '-r', local, '/human'])
    expect(human.code).toBe(0)
    expect(human.stdout).toMatch(/^\/human {2}62 files {2}.+ version [0-9a-f]{64}\n$/)
    expect(human.stderr).toBe('skipped 1 entries that are not regular files: link.txt\n')
  })

  it('writes to a fork and reports an empty directory', async () => {
    const client = createClient({ baseUrl: fx.url, apiKey: fx.rootApiKey })
    await client.versions.forks.create('tree')
    const local = join(fx.work, 'forked')
    await mkdir(join(local, 'a'), { recursive: true })
    await writeFile(join(local, 'a', 'x.txt'), 'on the fork')
    expect((await run(['put', '-r', local, '/f', '--fork', 'tree'])).code).toBe(0)
    expect(await client.files.readText('/f/a/x.txt', { fork: 'tree' })).toBe('on the fork')
    await expect(client.files.stat('/f')).rejects.toMatchObject({ code: 'NOT_FOUND' })

    const empty = join(fx.work, 'empty')
    await mkdir(empty)
    const none = await run(['put', '-r', empty, '/nothing', '--json'])
    expect(none.code).toBe(0)
    expect(JSON.parse(none.stdout)).toMatchObject({ files: 0, version: null, versions: 0 })
  })

  it('fails with one line and the documented exit code', async () => {
    const missing = await run(['put', '-r', join(fx.work, 'no-such-dir'), '/x'])
    expect(missing.code).toBe(3)
    expect(missing.stderr).toContain('no-such-dir: no such directory')

    const file = join(fx.work, 'plain.txt')
    await writeFile(file, 'plain')
    const notDir = await run(['put', '-r', file, '/x'])
    expect(notDir.code).toBe(1)
    expect(notDir.stderr).toContain('is not a directory')

    const local = join(fx.work, 'small')
    await mkdir(local)
    await writeFile(join(local, 'a.txt'), 'a')
    const client = createClient({ baseUrl: fx.url, apiKey: fx.rootApiKey })
    await client.files.write('/a-file', 'taken')
    const onFile = await run(['put', '-r', local, '/a-file'])
    expect(onFile.code).toBe(5)
    expect(onFile.stderr).toContain('/a-file is a file: put -r writes into a directory')

    expect((await run(['put', '-r', '-', '/x'])).code).toBe(2)
    expect((await run(['put', '-r', local, '/x', '--stream'])).code).toBe(2)
    // A file in the way below the target: the server refuses the commit, nothing is written.
    await client.files.write('/clash/a.txt/inner', 'dir in the way')
    const clash = await run(['put', '-r', local, '/clash'])
    expect(clash.code).toBe(5)
    expect(clash.stderr).toContain('CONFLICT')
  })
  it('puts the directory itself into a remote directory given with a trailing /', async () => {
    const local = join(fx.work, 'named-tree')
    await makeTree(local, 3)
    const client = createClient({ baseUrl: fx.url, apiKey: fx.rootApiKey })
    const into = await run(['put', '-r', local, '/into/', '--json'])
    expect(into.code, into.stderr).toBe(0)
    expect(JSON.parse(into.stdout)).toMatchObject({ path: '/into/named-tree' })
    expect(await client.files.readText('/into/named-tree/top.txt')).toBe('at the top')
    // Without the slash the directory's contents become the remote directory.
    const contents = await run(['put', '-r', local, '/contents'])
    expect(contents.code, contents.stderr).toBe(0)
    expect(await client.files.readText('/contents/top.txt')).toBe('at the top')
    expect(await client.files.exists('/contents/named-tree')).toBe(false)
  })
})
