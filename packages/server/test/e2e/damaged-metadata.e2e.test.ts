import { spawn } from 'node:child_process'
import { open, readdir, stat, unlink } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { client, login, startServerProcess } from '../kit/server-process'
import type { ServerProcess } from '../kit/server-process'

const bin = fileURLToPath(new URL('../../dist/bin.js', import.meta.url))

/** Runs the built server on `dir` until it exits by itself; its exit code and stderr. */
function runUntilExit(dir: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, '--port', '0', '--data', dir], { stdio: 'pipe' })
    let stderr = ''
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    // A server that starts despite the damage is stopped, and the test fails on its code.
    child.stdout.on('data', (d: Buffer) => {
      if (d.toString().includes('listening on')) child.kill('SIGTERM')
    })
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stderr }))
  })
}

/** Names and sizes of the data files, without LevelDB's lock and info log. */
async function dataFiles(dir: string): Promise<string[]> {
  const out: string[] = []
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || /^(LOCK|LOG|LOG\.old)$/.test(entry.name)) continue
    const file = join(entry.parentPath, entry.name)
    out.push(`${file} ${(await stat(file)).size}`)
  }
  return out.sort()
}

let server: ServerProcess | undefined
afterEach(async () => {
  await server?.dispose()
  server = undefined
})

/** A data directory with a few files whose metadata sits in LevelDB tables. */
async function stoppedDatabase(): Promise<string> {
  server = await startServerProcess()
  const dir = server.dataDir
  const api = client(server.url, (await login(server.url, server.rootApiKey as string)).token)
  for (let i = 0; i < 5; i++)
    expect((await api.put(`/files/f${i}.txt`, new TextEncoder().encode(`file ${i}`))).status).toBe(
      201,
    )
  await server.stop()
  // A restart writes LevelDB's log into a table.
  server = await startServerProcess([], dir)
  await server.stop()
  return dir
}

describe('svcdb-server on a damaged metadata directory', () => {
  it('exits non-zero naming a missing CURRENT and the repair command, changing nothing', async () => {
    const dir = await stoppedDatabase()
    await unlink(join(dir, 'meta', 'CURRENT'))
    const before = await dataFiles(dir)
    const { code, stderr } = await runUntilExit(dir)
    expect(code).not.toBe(0)
    expect(code).not.toBeNull()
    expect(stderr).toContain('meta/CURRENT')
    expect(stderr).toContain(`svcdb repair --data ${dir}`)
    expect(await dataFiles(dir)).toEqual(before)
  }, 60_000)

  it('exits non-zero naming a table whose index fails its checksum, changing nothing', async () => {
    const dir = await stoppedDatabase()
    const [table] = (await readdir(join(dir, 'meta'))).filter((n) => n.endsWith('.ldb'))
    const file = join(dir, 'meta', table as string)
    const at = (await stat(file)).size - 48 - 1
    const handle = await open(file, 'r+')
    const byte = Buffer.alloc(1)
    await handle.read(byte, 0, 1, at)
    byte[0] = (byte[0] as number) ^ 0x40
    await handle.write(byte, 0, 1, at)
    await handle.close()
    const before = await dataFiles(dir)
    const { code, stderr } = await runUntilExit(dir)
    expect(code).not.toBe(0)
    expect(code).not.toBeNull()
    expect(stderr).toContain(`meta/${table as string}`)
    expect(stderr).toContain(`svcdb repair --data ${dir}`)
    expect(await dataFiles(dir)).toEqual(before)
  }, 60_000)
})
