import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runRouteTour } from '../../test/route-tour'

runRouteTour('embedded', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'svcdb-dto-'))
  return {
    config: { dataDir: dir, storage: { kind: 'embedded' } },
    dispose: () => rm(dir, { recursive: true, force: true }),
  }
})
