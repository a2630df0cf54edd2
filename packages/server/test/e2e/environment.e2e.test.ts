import { describe, expect, it } from 'vitest'
import { runServerBinary } from './run-binary'
import { startServerProcess } from '../kit/server-process'

describe('the built server configured through the environment', () => {
  it('runs with the options its SVCDB_ variables give', async () => {
    const server = await startServerProcess([], undefined, {
      env: { SVCDB_AUTH: 'disabled', SVCDB_NODE_ID: '4' },
    })
    try {
      // Auth disabled: a write without any token is accepted.
      const put = await fetch(`${server.url}/files/env.txt`, { method: 'PUT', body: 'hi' })
      expect(put.status).toBe(201)
      const stats = (await (await fetch(`${server.url}/system/stats`)).json()) as {
        identity: { node_id: number }
      }
      expect(stats.identity.node_id).toBe(4)
    } finally {
      await server.dispose()
    }
  })

  it('refuses a bad variable with exit code 2 and its name', async () => {
    const run = await runServerBinary([], { SVCDB_PORT: 'seventy' })
    expect(run.code).toBe(2)
    expect(run.stderr).toContain('invalid value for SVCDB_PORT: "seventy"')
  })

  it('lists the variables in --help', async () => {
    const run = await runServerBinary(['--help'])
    expect(run.code).toBe(0)
    expect(run.stdout).toContain('SVCDB_PORT')
    expect(run.stdout).toContain('SVCDB_WEBHOOK_ALLOW')
  })
})
