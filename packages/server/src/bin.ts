#!/usr/bin/env node
import { limitHeapGrowth } from './process/heap-growth'
import { runServer } from './run-server'

// The last line of defence only: every read and write path handles its own failures. A
// rejection nobody handled is a bug to report, not a reason to drop every client's requests.
process.on('unhandledRejection', (reason) => {
  const detail = reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)
  process.stderr.write(`svcdb-server: unhandled rejection (a bug; please report it): ${detail}\n`)
})

limitHeapGrowth()
process.exitCode = await runServer(process.argv.slice(2))
