import { Database } from '@svcdb/engine'
import { createPostgresMetaStore } from '@svcdb/postgres'
import { createTaskRunner } from '@svcdb/scheduler'
import type { Task, TaskRunner } from '@svcdb/scheduler'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createClusterStorage } from '../../test/cluster/cluster-storage'
import type { ClusterStorage } from '../../test/cluster/cluster-storage'
import { createEngineScheduleStore } from './schedule-store'
import { createEngineTaskStore } from './task-store'

/** One node: a shared Database on a PostgreSQL store of its own (its own pool). */
async function openNode(storage: ClusterStorage): Promise<Database> {
  const meta = await createPostgresMetaStore({ connectionString: storage.meta, member: true })
  return Database.open({ meta, shared: true })
}

const pendingTask = (id: string): Task => ({
  id,
  taskType: 'gc',
  status: 'pending',
  args: { dry_run: true },
  progress: 0,
  createdAt: 1_000,
})

/** Resolves when `signal` aborts, with its reason. */
const aborted = (signal: AbortSignal) =>
  new Promise<unknown>((resolve) =>
    signal.aborted
      ? resolve(signal.reason)
      : signal.addEventListener('abort', () => resolve(signal.reason), { once: true }),
  )

describe('task and schedule stores of two nodes sharing one PostgreSQL database', () => {
  let storage: ClusterStorage
  let a: Database
  let b: Database
  const runners: TaskRunner[] = []

  beforeAll(async () => {
    storage = await createClusterStorage()
    ;[a, b] = await Promise.all([openNode(storage), openNode(storage)])
  })
  afterAll(async () => {
    for (const runner of runners) await runner.stop()
    await a?.close()
    await b?.close()
    await storage?.dispose()
  })

  it('lets exactly one of two nodes racing to claim a pending task win', async () => {
    const [storeA, storeB] = [createEngineTaskStore(a), createEngineTaskStore(b)]
    for (let i = 0; i < 10; i++) {
      const id = `race-${i}`
      await storeA.put(pendingTask(id))
      // B reads the record as stored, as its runner would before claiming.
      const seenByB = await storeB.get(id)
      expect(seenByB).toEqual(pendingTask(id))
      const claim = (owner: string): Task => ({
        ...pendingTask(id),
        status: 'running',
        startedAt: 2_000,
        owner,
      })
      const won = await Promise.all([
        storeA.putIf(claim('a'), pendingTask(id)),
        storeB.putIf(claim('b'), seenByB),
      ])
      expect(won.filter(Boolean)).toHaveLength(1)
      const winner = won[0] ? 'a' : 'b'
      expect(await storeA.get(id)).toEqual(claim(winner))
      expect(await storeB.get(id)).toEqual(claim(winner))
    }
    await storeA.delete(Array.from({ length: 10 }, (_, i) => `race-${i}`))
  })

  it('lets exactly one of two nodes create one schedule id', async () => {
    const schedule = {
      id: 'nightly',
      schedule: '0 3 * * *',
      taskType: 'gc',
      args: { dry_run: false },
      enabled: true,
      createdAt: 1_000,
      updatedAt: 1_000,
    }
    const won = await Promise.all([
      createEngineScheduleStore(a).putIf({ ...schedule, updatedAt: 1 }, undefined),
      createEngineScheduleStore(b).putIf({ ...schedule, updatedAt: 2 }, undefined),
    ])
    expect(won.filter(Boolean)).toHaveLength(1)
  })

  it('runs each task once across two runners and cancels across nodes', async () => {
    const runs: Array<{ node: string; id: string }> = []
    const started = new Map<string, AbortSignal>()
    const node = (nodeId: string, db: Database) => {
      const runner = createTaskRunner({
        store: createEngineTaskStore(db),
        nodeId,
        pollMs: 50,
        isNodeAlive: async () => true,
      })
      runner.register('gc', async ({ id }) => {
        runs.push({ node: nodeId, id })
      })
      runner.register('hold', async ({ id, signal }) => {
        started.set(id, signal)
        await aborted(signal)
        throw signal.reason
      })
      runners.push(runner)
      return runner
    }
    const runnerA = node('a', a)
    const runnerB = node('b', b)
    await Promise.all([runnerA.start(), runnerB.start()])
    const ids: string[] = []
    for (let i = 0; i < 12; i++) ids.push((await runnerA.enqueue('gc', { dry_run: true })).id)
    runnerB.wake()
    for (const id of ids) expect((await runnerB.waitFor(id)).status).toBe('completed')
    expect(runs.map((run) => run.id).sort()).toEqual([...ids].sort())

    const long = await runnerA.enqueue('hold', {})
    const running = await new Promise<AbortSignal>((resolve) => {
      const look = () => {
        const signal = started.get(long.id)
        if (signal) resolve(signal)
        else setTimeout(look, 10)
      }
      look()
    })
    const owner = (await runnerA.get(long.id)).status === 'running' ? runnerA : runnerB
    const other = owner === runnerA ? runnerB : runnerA
    expect(await other.cancel(long.id)).toMatchObject({ status: 'cancelled' })
    expect(await aborted(running)).toMatchObject({ code: 'CANCELLED' })
    expect((await owner.waitFor(long.id)).status).toBe('cancelled')
    expect(await createEngineTaskStore(a).get(long.id)).toMatchObject({ status: 'cancelled' })
  })
})
