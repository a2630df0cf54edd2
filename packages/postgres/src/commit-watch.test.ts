import { createServer } from 'node:net'
import type { AddressInfo, Socket } from 'node:net'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createCommitWatch } from './commit-watch'

describe('createCommitWatch', () => {
  const cleanups: (() => Promise<void>)[] = []
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup()
  })

  it('keeps trying to connect, with backoff, while a listener waits', async () => {
    // A server that takes each connection and drops it at once: every attempt fails.
    let attempts = 0
    const sockets = new Set<Socket>()
    const server = createServer((socket) => {
      attempts++
      sockets.add(socket)
      socket.destroy()
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    cleanups.push(
      () =>
        new Promise((resolve) => {
          for (const socket of sockets) socket.destroy()
          server.close(() => resolve())
        }),
    )
    const { port } = server.address() as AddressInfo
    const watch = createCommitWatch(`postgres://svcdb@127.0.0.1:${port}/svcdb`, 'svcdb')
    cleanups.push(() => watch.close())
    const stop = watch.add(() => undefined)
    await vi.waitFor(() => expect(attempts).toBeGreaterThanOrEqual(4), { timeout: 10_000 })
    stop()
    await watch.close()
    const after = attempts
    await new Promise((resolve) => setTimeout(resolve, 400))
    expect(attempts).toBe(after)
  })
})
