import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { fileURLToPath } from 'node:url'

/** The bare node:http server of `ceiling-server.mjs`, running in its own process. */
export interface RunningCeiling {
  url: URL
  close(): Promise<void>
}

/** Starts `ceiling-server.mjs` with this Node.js on an ephemeral loopback port. */
export async function startCeilingServer(): Promise<RunningCeiling> {
  const script = fileURLToPath(new URL('./ceiling-server.mjs', import.meta.url))
  const child = spawn(process.execPath, [script], { stdio: ['ignore', 'pipe', 'inherit'] })
  const exited = once(child, 'exit')
  const first = await Promise.race([once(child.stdout, 'data'), exited])
  const port = Number(String(first[0]).trim())
  if (!Number.isInteger(port) || port <= 0) throw new Error('the ceiling server did not start')
  return {
    url: new URL(`http://127.0.0.1:${port}/`),
    async close() {
      if (child.exitCode === null) child.kill('SIGTERM')
      await exited
    },
  }
}
