import { createHash } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { Database } from '../src/index'
import { spawnFixture, waitForLine } from './spawn-fixture'

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'svcdb-crash-'))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

it('keeps every acknowledged write byte-identical across 20 SIGKILLs at random moments', async () => {
  const journal = new Map<string, string>()
  for (let round = 0; round < 20; round++) {
    const child = spawnFixture('crash-writer', [dir, String(round)])
    let buffered = ''
    child.stdout.on('data', (d: Buffer) => {
      buffered += d.toString()
      const lines = buffered.split('\n')
      buffered = lines.pop() ?? ''
      for (const line of lines) {
        const [tag, path, hash] = line.split(' ')
        if (tag === 'ack' && path !== undefined && hash !== undefined) journal.set(path, hash)
      }
    })
    const closed = new Promise((resolve) => child.once('close', resolve))
    await waitForLine(child, /^ready$/)
    await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 400))
    child.kill('SIGKILL')
    await closed

    const db = await Database.open({ path: dir })
    try {
      for (const [path, hash] of journal) {
        const bytes = await db.readFile(path)
        expect(createHash('sha256').update(bytes).digest('hex'), path).toBe(hash)
      }
    } finally {
      await db.close()
    }
  }
  // The rounds must actually have written under load for the test to mean anything.
  expect(journal.size).toBeGreaterThan(200)
}, 120_000)
