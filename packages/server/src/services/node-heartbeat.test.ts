import { createLocalCluster } from '@svcdb/engine'
import { afterEach, describe, expect, it } from 'vitest'
import { openTempDatabase } from '../../test/kit'
import type { TempDatabase } from '../../test/kit'
import { startNodeHeartbeat } from './node-heartbeat'

describe('startNodeHeartbeat', () => {
  let temp: TempDatabase | undefined
  afterEach(async () => {
    await temp?.destroy()
    temp = undefined
  })
  const options = (warnings: string[]) => ({
    version: '9.9.9',
    url: () => 'http://127.0.0.1:1',
    onError: (err: unknown) => warnings.push(`error: ${(err as Error).message}`),
    onDuplicateId: (other: { id: string }) => warnings.push(`duplicate ${other.id}`),
  })

  it('has landed its first heartbeat when it resolves, and warns of a live node with its id', async () => {
    temp = await openTempDatabase()
    const cluster = createLocalCluster('7')
    const warnings: string[] = []
    const stop = await startNodeHeartbeat({ cluster, db: temp.db, shared: true }, options(warnings))
    const [self] = await cluster.nodes()
    expect(self).toMatchObject({
      id: '7',
      url: 'http://127.0.0.1:1',
      version: '9.9.9',
      alive: true,
    })
    expect(warnings).toEqual([])
    // A second process with the same id sees the first alive.
    const again = await startNodeHeartbeat(
      { cluster, db: temp.db, shared: true },
      options(warnings),
    )
    expect(warnings).toEqual(['duplicate 7'])
    await again()
    await stop()
    await cluster.close()
  })

  it('rejects when the first heartbeat cannot land, and does nothing for an embedded database', async () => {
    temp = await openTempDatabase()
    const cluster = createLocalCluster('1')
    await cluster.close()
    await expect(
      startNodeHeartbeat({ cluster, db: temp.db, shared: true }, options([])),
    ).rejects.toMatchObject({ code: 'CLOSED' })
    const alone = createLocalCluster('2')
    const stop = await startNodeHeartbeat(
      { cluster: alone, db: temp.db, shared: false },
      options([]),
    )
    expect(await alone.nodes()).toEqual([])
    await stop()
    await alone.close()
  })
})
