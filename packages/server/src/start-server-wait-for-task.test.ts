import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_SERVER_CONFIG } from './config/server-config'
import { createLogger } from './logger'
import { startServer } from './start-server'
import type { RunningServer } from './start-server'

let dir: string
let server: RunningServer

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'svcdb-wait-for-task-'))
  server = await startServer(
    { ...DEFAULT_SERVER_CONFIG, port: 0, dataDir: dir, auth: { kind: 'disabled' } },
    { logger: createLogger({ level: 'silent' }) },
  )
})
afterAll(async () => {
  await server?.close({ graceMs: 100 })
  await rm(dir, { recursive: true, force: true })
})

async function enqueueGc(): Promise<string> {
  const res = await fetch(`${server.url}/system/tasks/gc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ dry_run: true }),
  })
  expect(res.status).toBe(200)
  return ((await res.json()) as { id: string }).id
}

describe('RunningServer.waitForTask', () => {
  it('resolves once a task started through the API has finished, as the API then reports it', async () => {
    const id = await enqueueGc()
    const done = await server.waitForTask(id)
    expect(done).toMatchObject({ id, status: 'completed' })
    const seen = (await (await fetch(`${server.url}/system/tasks/${id}`)).json()) as {
      status: string
    }
    expect(seen.status).toBe('completed')
    // A finished task answers at once.
    await expect(server.waitForTask(id)).resolves.toMatchObject({ id, status: 'completed' })
  })

  it('rejects for a task that does not exist, and when the signal aborts', async () => {
    await expect(server.waitForTask('no-such-task')).rejects.toMatchObject({ code: 'NOT_FOUND' })
    const controller = new AbortController()
    controller.abort(new Error('gave up'))
    const id = await enqueueGc()
    await expect(server.waitForTask(id, { signal: controller.signal })).rejects.toThrow('gave up')
  })
})
