import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runRouteTour } from '../route-tour'
import { createClusterStorage } from './cluster-storage'

// Every route with a JSON answer, on a server keeping its database in PostgreSQL and S3.
runRouteTour('PostgreSQL + S3', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'svcdb-dto-'))
  const shared = await createClusterStorage()
  return {
    config: { dataDir: dir, storage: { kind: 'shared', meta: shared.meta, chunks: shared.chunks } },
    async dispose() {
      await shared.dispose()
      await rm(dir, { recursive: true, force: true })
    },
  }
})
