import { spawn } from 'node:child_process'
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { createClient } from '@svcdb/client'
import { describe, expect, it } from 'vitest'
import { bin, svcdb, useFixture } from './cli-harness'

const fx = useFixture()

const run = (args: string[]) => svcdb(args, { env: fx.env, cwd: fx.work })
const json = async <T = Record<string, unknown>>(args: string[]): Promise<T> => {
  const result = await run([...args, '--json'])
  expect(result.code, result.stderr).toBe(0)
  return JSON.parse(result.stdout) as T
}

/** Every file below `dir`, by `/`-separated relative path, with its text. */
async function readTree(dir: string): Promise<Map<string, string>> {
  const out = new Map<string, string>()
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true }))
    if (entry.isFile()) {
      const path = join(entry.parentPath, entry.name)
      out.set(
        path
          .slice(dir.length + 1)
          .split('\\')
          .join('/'),
        await readFile(path, 'utf8'),
      )
    }
  return out
}

/** A remote tree under `/site`: small files over a few directories, a larger file, a symlink. */
async function seed(): Promise<Map<string, string>> {
  const files = new Map<string, string>()
  for (let i = 0; i < 30; i++) files.set(`d${i % 3}/f${i}.txt`, `file ${i}\n`.repeat(1 + (i % 7)))
  files.set('big/data.txt', 'a line long enough to make a few chunks of this file\n'.repeat(20_000))
  files.set('top.txt', 'at the top')
  const local = join(fx.work, 'seed')
  for (const [rel, text] of files) {
    await mkdir(join(local, rel, '..'), { recursive: true })
    await writeFile(join(local, rel), text)
  }
  expect((await run(['put', '-r', local, '/site'])).code).toBe(0)
  const client = createClient({ baseUrl: fx.url, apiKey: fx.rootApiKey })
  await client.files.mkdir('/site/empty')
  await client.files.symlink('/site/link.txt', '/site/top.txt')
  return files
}

let files: Map<string, string>

describe('svcdb get -r (built binary, live server)', () => {
  it('downloads a tree, then only what differs locally', async () => {
    files = await seed()
    const out = join(fx.work, 'out')
    const first = await json<Record<string, unknown>>(['get', '-r', '/site', out])
    expect(first).toMatchObject({
      path: '/site',
      directory: out,
      files: files.size,
      downloaded: files.size,
      identical: 0,
      skipped: ['link.txt'],
      version: expect.stringMatching(/^[0-9a-f]{64}$/),
    })
    expect(await readTree(out)).toEqual(files)
    expect((await readdir(join(out, 'empty'))).length).toBe(0)

    // One file changed locally (same size), one removed: only those two come down again.
    await writeFile(join(out, 'top.txt'), 'AT THE TOP')
    await rm(join(out, 'd1', 'f4.txt'))
    const second = await json(['get', '-r', '/site/', out, '--jobs', '2'])
    expect(second).toMatchObject({ downloaded: 2, identical: files.size - 2 })
    expect(await readTree(out)).toEqual(files)

    // Human output: one line; the skipped symlink on stderr; nothing else on a pipe.
    const human = await run(['get', '-r', 'site', out])
    expect(human.code).toBe(0)
    expect(human.stdout).toBe(
      `${out}  ${files.size} files  ${/\d+\.\d (KiB|MiB)/.exec(human.stdout)?.[0]} (0 downloaded, ${files.size} already identical)  version ${String(first.version)}\n`,
    )
    expect(human.stderr).toBe('skipped 1 symlinks: link.txt\n')
  })

  it('puts a directory’s contents into the local directory, with or without a trailing /', async () => {
    const plain = join(fx.work, 'plain')
    const slash = join(fx.work, 'slash')
    expect((await run(['get', '-r', '/site/d0', plain])).code).toBe(0)
    expect((await run(['get', '-r', '/site/d0/', slash])).code).toBe(0)
    const expected = new Map(
      [...files].filter(([rel]) => rel.startsWith('d0/')).map(([rel, t]) => [rel.slice(3), t]),
    )
    expect(await readTree(plain)).toEqual(expected)
    expect(await readTree(slash)).toEqual(expected)
  })

  it('reads a snapshot as it was', async () => {
    expect((await run(['snapshot', 'create', 'before'])).code).toBe(0)
    const client = createClient({ baseUrl: fx.url, apiKey: fx.rootApiKey })
    await client.files.write('/site/top.txt', 'changed after the snapshot')
    const out = join(fx.work, 'snap')
    expect((await run(['get', '-r', '/site', out, '--snapshot', 'before'])).code).toBe(0)
    expect(await readFile(join(out, 'top.txt'), 'utf8')).toBe('at the top')
  })

  it('fails with one line and the documented exit code', async () => {
    expect((await run(['get', '-r', '/no-such-dir', join(fx.work, 'x')])).code).toBe(3)
    const onFile = await run(['get', '-r', '/site/top.txt', join(fx.work, 'x')])
    expect(onFile.code).toBe(1)
    expect(onFile.stderr).toContain('/site/top.txt is a file: get -r reads a directory')
    const localFile = join(fx.work, 'a-local-file')
    await writeFile(localFile, 'x')
    const inTheWay = await run(['get', '-r', '/site', localFile])
    expect(inTheWay.code).toBe(5)
    expect(inTheWay.stderr).toContain('is not a directory')
    expect((await run(['get', '-r', '/site', '-'])).code).toBe(2)
    expect((await run(['get', '-r', '/site'])).code).toBe(2)
    expect((await run(['get', '-r', '/site', join(fx.work, 'y'), '--jobs', '0'])).code).toBe(2)
    expect((await run(['get', '-r', '/site', join(fx.work, 'y'), '--range', '0-1'])).code).toBe(2)
  })

  it('draws one progress line on a terminal and nothing on a pipe', async () => {
    const out = join(fx.work, 'tty')
    // `script` gives the binary a pseudo-terminal, as an interactive shell would.
    const child = spawn(
      'script',
      ['-qec', `${process.execPath} ${bin} get -r /site ${out}`, '/dev/null'],
      {
        env: { ...process.env, ...fx.env },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    )
    let output = ''
    child.stdout.on('data', (d: Buffer) => (output += d.toString()))
    expect(await new Promise((resolve) => child.on('close', resolve))).toBe(0)
    expect(output).toMatch(
      new RegExp(`get /site \\[[=\\- ]*\\] *100% ${files.size}/${files.size} files`),
    )
    const piped = await run(['get', '-r', '/site', join(fx.work, 'piped')])
    expect(piped.stderr).toBe('skipped 1 symlinks: link.txt\n')
  })
})
