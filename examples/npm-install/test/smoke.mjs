// Run inside the empty project the tarballs were installed into: each package is imported
// by its published name, as a user's code would, and does real work.
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Database } from '@svcdb/engine'
import { createClient } from '@svcdb/client'
import { DEFAULT_SERVER_CONFIG, startServer } from '@svcdb/server'
import { routes } from '@svcdb/contract'
import { DEFAULT_SCHEMA } from '@svcdb/postgres'
import { parseS3Url } from '@svcdb/s3'

const dir = await mkdtemp(join(tmpdir(), 'svcdb-npm-install-'))
try {
  const db = await Database.open({ path: join(dir, 'embedded') })
  await db.writeFile('/hello.txt', new TextEncoder().encode('hello from npm'))
  const text = new TextDecoder().decode(await db.readFile('/hello.txt'))
  await db.close()

  const server = await startServer(
    { ...DEFAULT_SERVER_CONFIG, port: 0, dataDir: join(dir, 'served'), auth: { kind: 'disabled' } },
    { logger: { debug() {}, info() {}, warn() {}, error() {} }, stdout: () => undefined },
  )
  const client = createClient({ baseUrl: server.url })
  const health = await client.system.health()
  await server.close()
  // The scale-out drivers load from their published names (no server to reach here).
  const drivers = { schema: DEFAULT_SCHEMA, bucket: parseS3Url('s3://chunks/prod?region=r').bucket }
  console.log(
    JSON.stringify({ text, health: health.status, routes: Object.keys(routes).length, drivers }),
  )
} finally {
  await rm(dir, { recursive: true, force: true })
}
