#!/usr/bin/env node
import { createClient } from '@svcdb/client'
import { readEnvConfig } from './env-config'
import { createSessionsApp } from './sessions-app'

// The `sessions-app` binary: SVCDB_URL and SVCDB_API_KEY (required), PORT, HOST and
// SESSIONS_COLLECTION from the environment; stops cleanly on SIGINT and SIGTERM.

let config
try {
  config = readEnvConfig(process.env)
} catch (err) {
  console.error(`sessions-app: ${(err as Error).message}`)
  process.exit(2)
}

const app = createSessionsApp({
  client: createClient({ baseUrl: config.svcdbUrl, apiKey: config.apiKey }),
  collection: config.collection,
})
const { url } = await app.listen({ port: config.port, host: config.host })
console.log(
  `sessions-app listening on ${url}, storing sessions in ${config.svcdbUrl} ${config.collection}`,
)

let stopping = false
const stop = async (code: number) => {
  if (stopping) return
  stopping = true
  await app.close()
  process.exit(code)
}
process.on('SIGINT', () => void stop(0))
process.on('SIGTERM', () => void stop(0))

app.ready.then(
  () => console.log('sessions-app: following svcdb events; dispatcher caught up'),
  (err: unknown) => {
    // Without svcdb's stream nothing would be dispatched: better to stop than to limp on.
    if (stopping) return
    console.error(`sessions-app: cannot follow svcdb events: ${(err as Error).message}`)
    void stop(1)
  },
)
