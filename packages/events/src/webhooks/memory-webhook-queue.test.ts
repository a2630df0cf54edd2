import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
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
    add: after(memory.add, true),
    replace: after(memory.replace, true),
    finish: after(memory.finish, true),
    prune: after(memory.prune, false),
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

const delivery = (extra: Partial<WebhookDelivery> = {}): WebhookDelivery => ({
  id: 'hook:boot-1',
  webhookId: 'hook',
  eventId: 'boot-1',
  eventType: 'entries_created',
  body: '{}',
  attempts: 0,
  nextAttemptAt: 10,
  createdAt: 10,
  ...extra,
})

describe('createMemoryWebhookQueue compare-and-set calls', () => {
  it('adds an id once, and refuses it again after finishing until the trace is pruned', async () => {
    const queue = createMemoryWebhookQueue()
    expect(await queue.add(delivery())).toBe(true)
    expect(await queue.add(delivery({ body: '{"other":1}' }))).toBe(false)
    expect(await queue.get('hook:boot-1')).toEqual(delivery())
    expect(await queue.finish(delivery(), 100)).toBe(true)
    expect(await queue.size()).toBe(0)
    expect(await queue.add(delivery())).toBe(false)
    expect(await queue.prune(100, 10)).toBe(0)
    expect(await queue.prune(101, 10)).toBe(1)
    expect(await queue.add(delivery())).toBe(true)
  })

  it('replaces or finishes only the state it was given', async () => {
    const queue = createMemoryWebhookQueue()
    await queue.add(delivery())
    const retried = delivery({ attempts: 1, nextAttemptAt: 50, lastError: 'HTTP 503' })
    expect(await queue.replace(delivery(), retried)).toBe(true)
    // A second holder still working from the old state changes nothing.
    expect(await queue.replace(delivery(), delivery({ attempts: 1, nextAttemptAt: 99 }))).toBe(
      false,
    )
    expect(await queue.finish(delivery(), 60)).toBe(false)
    expect(await queue.get('hook:boot-1')).toEqual(retried)
    expect(await queue.finish(retried, 60)).toBe(true)
    // Finished: a late retry mark does not bring it back.
    expect(await queue.replace(retried, delivery({ attempts: 2, nextAttemptAt: 70 }))).toBe(false)
    expect(await queue.size()).toBe(0)
  })
})
