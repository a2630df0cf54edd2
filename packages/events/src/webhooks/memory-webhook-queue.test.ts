import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { testWebhookQueue } from '../testing/webhook-queue-conformance'
import { createMemoryWebhookQueue } from './memory-webhook-queue'
import type { WebhookDelivery, WebhookQueue } from './webhook-queue'

testWebhookQueue('memory', { create: () => createMemoryWebhookQueue() })

// A small file-backed queue, so the suite's durability check runs here too; the real durable
// implementation lives in the server, on its database.
const fileQueue = (file: string): WebhookQueue & { file: string } => {
  const load = (): Record<string, WebhookDelivery> => {
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as Record<string, WebhookDelivery>
    } catch {
      return {}
    }
  }
  const memory = createMemoryWebhookQueue()
  const ready = Promise.all(Object.values(load()).map((d) => memory.put(d)))
  const save = async () => {
    const all = await memory.due(Number.POSITIVE_INFINITY, Number.MAX_SAFE_INTEGER)
    writeFileSync(file, JSON.stringify(Object.fromEntries(all.map((d) => [d.id, d]))))
  }
  const after =
    <A extends unknown[], R>(fn: (...args: A) => Promise<R>, write: boolean) =>
    async (...args: A) => {
      await ready
      const result = await fn(...args)
      if (write) await save()
      return result
    }
  return {
    file,
    put: after(memory.put, true),
    remove: after(memory.remove, true),
    get: after(memory.get, false),
    due: after(memory.due, false),
    nextDueAt: after(memory.nextDueAt, false),
    size: after(memory.size, false),
  }
}

const dirs: string[] = []
testWebhookQueue('file-backed test double', {
  create: () => {
    const dir = mkdtempSync(join(tmpdir(), 'svcdb-webhook-queue-'))
    dirs.push(dir)
    return fileQueue(join(dir, 'queue.json'))
  },
  destroy: () => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
  },
  reopen: (queue) => Promise.resolve(fileQueue((queue as ReturnType<typeof fileQueue>).file)),
})
