import { spawn } from 'node:child_process'
import { readdir, stat } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { client, login, startServerProcess } from '../kit/server-process'
import type { ServerProcess } from '../kit/server-process'

const bin = fileURLToPath(new URL('../../dist/bin.js', import.meta.url))

/**
 * LevelDB's human-readable info log. LevelDB renames `LOG` to `LOG.old` and opens a new `LOG`
 * before it takes its `LOCK` (`SanitizeOptions` runs first in `DB::Open`), so a refused
 * second open still rotates them; classic-level has no option to turn the info log off.
 * They hold diagnostics only, never data, and are left out of the comparison.
 */
const LEVELDB_INFO_LOG = new Set(['meta/LOG', 'meta/LOG.old'])

/** Every file under `dir` with its size and modification time. */
async function listing(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {}
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue
    const path = join(entry.parentPath, entry.name)
    const rel = relative(dir, path)
    if (LEVELDB_INFO_LOG.has(rel)) continue
    const s = await stat(path)
    out[rel] = `${s.size} bytes, mtime ${s.mtimeMs}`
  }
  return out
}

/** Runs the server binary to its exit, returning what it printed. */
function runToExit(
  args: string[],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [bin, ...args], { stdio: 'pipe' })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })))
}

let holder: ServerProcess | undefined

afterAll(async () => {
  if (holder !== undefined) process.kill(holder.pid, 'SIGCONT')
  await holder?.dispose()
})

describe('a second server process on a data directory in use', () => {
  it('exits non-zero naming the locked directory, and changes no file of it', async () => {
    holder = await startServerProcess()
    const token = (await login(holder.url, holder.rootApiKey as string)).token
    const api = client(holder.url, token)
    expect((await api.put('/files/kept.txt', new TextEncoder().encode('kept'))).status).toBe(201)

    // Frozen, the holder cannot touch its files while the second process runs, yet keeps its
    // LevelDB lock (a POSIX lock belongs to the process, stopped or not).
    process.kill(holder.pid, 'SIGSTOP')
    let second: Awaited<ReturnType<typeof runToExit>>
    let before: Record<string, string>
    let after: Record<string, string>
    try {
      before = await listing(holder.dataDir)
      second = await runToExit(['--port', '0', '--data', holder.dataDir, '--log-level', 'warn'])
      after = await listing(holder.dataDir)
    } finally {
      process.kill(holder.pid, 'SIGCONT')
    }

    expect(second.code).not.toBe(0)
    expect(second.code).not.toBeNull()
    expect(second.stderr).toMatch(/locked/)
    expect(second.stderr).toMatch(/another process/)
    expect(second.stderr).toContain(holder.dataDir)
    expect(second.stdout).not.toMatch(/listening on|root api key/)
    expect(Object.keys(before).length).toBeGreaterThan(0)
    expect(after).toEqual(before)
    // The holder keeps serving what it had.
    const read = await api.get('/files/kept.txt')
    expect(read.status).toBe(200)
    expect(await read.text()).toBe('kept')
  }, 60_000)
})
