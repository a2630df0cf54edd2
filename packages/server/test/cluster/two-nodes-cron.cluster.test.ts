import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { client, login } from '../kit'
import type { ServerProcess } from '../kit'
import { createClusterStorage, startClusterNode } from './cluster-storage'
import type { ClusterStorage } from './cluster-storage'

/**
 * Cron on two server processes sharing one database: both tick, one task per slot. In a file
 * of its own because it waits for the next minute, which other files use meanwhile.
 */
describe('cron on two nodes sharing one database', () => {
  let storage: ClusterStorage
  const started: ServerProcess[] = []
  const start = async (nodeId: number) => {
    const server = await startClusterNode(storage, nodeId)
    started.push(server)
    return server
  }

  beforeAll(async () => {
    storage = await createClusterStorage()
  })
  afterAll(async () => {
    for (const server of started) await server.dispose()
    await storage?.dispose()
  })

  it('enqueues one task per cron slot with every node ticking', async () => {
    const a = await start(1)
    const api = client(a.url, (await login(a.url, a.rootApiKey as string)).token)
    const gcTasks = async () =>
      (
        (await (await api.get('/system/tasks')).json()) as {
          items: { task_type: string; args: Record<string, unknown> }[]
        }
      ).items.filter((task) => task.task_type === 'gc' && task.args.dry_run === true).length
    const made = await api.post('/system/cron', {
      id: 'each-minute',
      schedule: '* * * * *',
      task_type: 'gc',
      args: { dry_run: true },
      enabled: true,
    })
    expect(made.status).toBe(201)
    // A node started now reads the schedule at once; A re-armed when it stored it. Both then
    // tick at the next minute.
    await start(2)
    const nextSlot = Math.ceil((Date.now() + 1) / 60_000) * 60_000
    await new Promise((resolve) => setTimeout(resolve, nextSlot - Date.now() + 5_000))
    expect(await gcTasks()).toBe(1)
  }, 90_000)
})
