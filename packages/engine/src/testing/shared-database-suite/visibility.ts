import { describe, expect, it } from 'vitest'
import type { MetaStore } from '../../meta/meta-store'
import { outcome } from '../meta-store-conformance/async-results'
import { text } from './fixture'
import type { SharedDatabaseSuiteContext } from './fixture'

interface LogRecord {
  seq: number
  ref: string
  from: string | null
  to: string | null
}

/** The version log as stored, oldest first. */
async function versionLog(meta: MetaStore): Promise<LogRecord[]> {
  const records: LogRecord[] = []
  for await (const [key, value] of meta.iterate('log'))
    records.push({ seq: Number(key), ...(JSON.parse(text(value)) as Omit<LogRecord, 'seq'>) })
  return records
}

/** What one node acknowledged, the other reads at once, with no refresh in between. */
export function visibilityTests(ctx: SharedDatabaseSuiteContext): void {
  describe('reads across nodes', () => {
    it('gives B the history of what A wrote, in order, with one chain of sequences', async () => {
      const { a, b, meta } = await ctx.open()
      const versions: string[] = []
      for (let i = 0; i < 6; i++) {
        const [mine] = await Promise.all([
          a.writeFile('/h.txt', `version ${i}`),
          b.writeFile(`/noise/${i}`, `noise ${i}`),
        ])
        versions.push(mine.version)
      }
      await a.delete('/h.txt')
      const items = await b.history('/h.txt')
      expect(items.map((item) => item.changeType)).toEqual([
        'deleted',
        'modified',
        'modified',
        'modified',
        'modified',
        'modified',
        'added',
      ])
      expect(items.slice(1).map((item) => item.version)).toEqual([...versions].reverse())
      const log = await versionLog(meta)
      expect(log.map((r) => r.seq)).toEqual(log.map((_, i) => i + 1))
      const heads = log.filter((r) => r.ref === 'HEAD')
      // Each HEAD move starts where the one before it ended: nothing was overwritten or lost.
      for (let i = 1; i < heads.length; i++) expect(heads[i]?.from).toBe(heads[i - 1]?.to)
      expect(heads.at(-1)?.to).toBe(b.head())
    })

    it('deletes on B a file A just wrote, with no refresh in between', async () => {
      const { a, b } = await ctx.open()
      for (let i = 0; i < 10; i++) {
        await a.writeFile(`/gone-${i}.txt`, `written by a ${i}`)
        expect((await b.delete(`/gone-${i}.txt`)).entryType).toBe('file')
        expect(await outcome(a.stat(`/gone-${i}.txt`))).toBe('NOT_FOUND')
      }
    })

    it('shows B every write A acknowledged, at once, in every read', async () => {
      const { a, b } = await ctx.open()
      for (let i = 0; i < 15; i++) {
        const written = await a.writeFile(`/seen/${i % 3}.txt`, `value ${i}`)
        expect(text(await b.readFile(`/seen/${i % 3}.txt`))).toBe(`value ${i}`)
        expect((await b.stat(`/seen/${i % 3}.txt`)).hash).toBe(written.hash)
        expect(await b.count('/seen')).toBe(Math.min(i + 1, 3))
        const streamed = await new Response(b.createReadStream(`/seen/${i % 3}.txt`)).text()
        expect(streamed).toBe(`value ${i}`)
      }
      await a.symlink('/link', '/seen/0.txt')
      expect(await b.readlink('/link')).toBe('/seen/0.txt')
    })
  })
}
