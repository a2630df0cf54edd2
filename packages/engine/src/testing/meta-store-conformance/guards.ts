import { describe, expect, it } from 'vitest'
import type { MetaGuard, MetaOp, MetaStore } from '../../meta/meta-store'
import { collect, outcome } from './async-results'
import type { MetaSuiteContext } from './fixture'
import { bytes } from './sample-keys'

const utf8 = (value: string): Uint8Array => new TextEncoder().encode(value)
/** Stored bytes as plain numbers (drivers may return a `Buffer` or a `Uint8Array`). */
const numbers = (value: Uint8Array | undefined): number[] | undefined =>
  value === undefined ? undefined : [...value]
const text = (value: Uint8Array | undefined): string | undefined =>
  value === undefined ? undefined : new TextDecoder().decode(value)

async function seed(store: MetaStore): Promise<void> {
  await store.batch(
    [
      { type: 'put', space: 'ref', key: 'HEAD', value: utf8('v1') },
      { type: 'put', space: 'obj', key: bytes(1, 2), value: bytes(9, 9) },
    ],
    { sync: true },
  )
}

/** The ops every guarded batch below tries to write, over several spaces. */
const payload: MetaOp[] = [
  { type: 'put', space: 'ref', key: 'HEAD', value: utf8('v2') },
  { type: 'put', space: 'log', key: 'entry', value: utf8('logged') },
  { type: 'put', space: 'chunkidx', key: bytes(7), value: bytes(7) },
  { type: 'del', space: 'obj', key: bytes(1, 2) },
]

/** Asserts that nothing of {@link payload} was written over {@link seed}. */
async function expectUntouched(store: MetaStore): Promise<void> {
  expect(text(await store.get('ref', 'HEAD'))).toBe('v1')
  expect(await store.get('log', 'entry')).toBeUndefined()
  expect(await store.get('chunkidx', bytes(7))).toBeUndefined()
  expect(numbers(await store.get('obj', bytes(1, 2)))).toEqual([9, 9])
}

async function expectWritten(store: MetaStore): Promise<void> {
  expect(text(await store.get('ref', 'HEAD'))).toBe('v2')
  expect(text(await store.get('log', 'entry'))).toBe('logged')
  expect(numbers(await store.get('chunkidx', bytes(7)))).toEqual([7])
  expect(await store.get('obj', bytes(1, 2))).toBeUndefined()
}

/** The message of the error `pending` rejects with ('' if it resolves). */
async function message(pending: Promise<unknown>): Promise<string> {
  try {
    await pending
    return ''
  } catch (err) {
    return String((err as Error).message)
  }
}

/** `batch` with `guards`: compare-and-set over one or more keys. */
export function guardsTests(ctx: MetaSuiteContext): void {
  describe('guarded batch', () => {
    it('writes every op when the expected value is stored', async () => {
      const { store } = await ctx.open()
      await seed(store)
      await store.batch(payload, {
        sync: true,
        guards: [{ space: 'ref', key: 'HEAD', expect: utf8('v1') }],
      })
      await expectWritten(store)
    })

    it('writes nothing and fails with CONFLICT naming the key when another value is stored', async () => {
      const { store } = await ctx.open()
      await seed(store)
      const guards: MetaGuard[] = [{ space: 'ref', key: 'HEAD', expect: utf8('v0') }]
      const pending = store.batch(payload, { sync: true, guards })
      expect(await outcome(pending)).toBe('CONFLICT')
      const said = await message(store.batch(payload, { sync: false, guards }))
      expect(said).toContain('HEAD')
      expect(said).toContain('ref')
      await expectUntouched(store)
    })

    it('fails when any one of several guards does not hold', async () => {
      const { store } = await ctx.open()
      await seed(store)
      const guards: MetaGuard[] = [
        { space: 'ref', key: 'HEAD', expect: utf8('v1') },
        { space: 'obj', key: bytes(1, 2), expect: bytes(9, 8) },
      ]
      expect(await outcome(store.batch(payload, { sync: true, guards }))).toBe('CONFLICT')
      await expectUntouched(store)
      // A prefix or an extension of the stored value is no match either.
      for (const expectValue of [bytes(9), bytes(9, 9, 0), new Uint8Array(0)]) {
        const prefix: MetaGuard[] = [{ space: 'obj', key: bytes(1, 2), expect: expectValue }]
        expect(await outcome(store.batch(payload, { sync: true, guards: prefix }))).toBe('CONFLICT')
      }
      await expectUntouched(store)
    })

    it('with expect null, writes when the key is absent and fails when it is present', async () => {
      const { store } = await ctx.open()
      await seed(store)
      const present: MetaGuard[] = [{ space: 'ref', key: 'HEAD', expect: null }]
      expect(await outcome(store.batch(payload, { sync: true, guards: present }))).toBe('CONFLICT')
      await expectUntouched(store)
      const absent: MetaGuard[] = [{ space: 'ref', key: 'fork', expect: null }]
      await store.batch(payload, { sync: true, guards: absent })
      await expectWritten(store)
    })

    it('treats an empty stored value as present, not absent', async () => {
      const { store } = await ctx.open()
      const empty = new Uint8Array(0)
      await store.batch([{ type: 'put', space: 'meta', key: 'e', value: empty }], { sync: true })
      const put: MetaOp = { type: 'put', space: 'meta', key: 'e', value: utf8('x') }
      const absent: MetaGuard[] = [{ space: 'meta', key: 'e', expect: null }]
      expect(await outcome(store.batch([put], { sync: true, guards: absent }))).toBe('CONFLICT')
      const equal: MetaGuard[] = [{ space: 'meta', key: 'e', expect: empty }]
      await store.batch([put], { sync: true, guards: equal })
      expect(text(await store.get('meta', 'e'))).toBe('x')
    })

    it('checks a guard on a key its own batch writes against the value before the batch', async () => {
      const { store } = await ctx.open()
      await seed(store)
      const twice: MetaOp[] = [
        { type: 'put', space: 'ref', key: 'HEAD', value: utf8('v1') },
        { type: 'put', space: 'ref', key: 'HEAD', value: utf8('v2') },
      ]
      // The batch's own first op does not make `v1` hold... it holds already, so it writes.
      await store.batch(twice, {
        sync: true,
        guards: [{ space: 'ref', key: 'HEAD', expect: utf8('v1') }],
      })
      expect(text(await store.get('ref', 'HEAD'))).toBe('v2')
      // And a batch creating a key does not satisfy its own "present" guard.
      const create: MetaOp[] = [{ type: 'put', space: 'ref', key: 'new', value: utf8('n') }]
      const guards: MetaGuard[] = [{ space: 'ref', key: 'new', expect: utf8('n') }]
      expect(await outcome(store.batch(create, { sync: true, guards }))).toBe('CONFLICT')
      expect(await store.get('ref', 'new')).toBeUndefined()
      // Deleting the guarded key is fine once the guard holds.
      await store.batch([{ type: 'del', space: 'ref', key: 'HEAD' }], {
        sync: true,
        guards: [{ space: 'ref', key: 'HEAD', expect: utf8('v2') }],
      })
      expect(await store.get('ref', 'HEAD')).toBeUndefined()
    })

    it('guards keys of binary spaces as well as text spaces', async () => {
      const { store } = await ctx.open()
      await seed(store)
      const key = bytes(0x00, 0xff, 0x80)
      const put = (value: Uint8Array): MetaOp[] => [{ type: 'put', space: 'idx', key, value }]
      await store.batch(put(bytes(1)), {
        sync: true,
        guards: [{ space: 'idx', key, expect: null }],
      })
      expect(
        await outcome(
          store.batch(put(bytes(2)), { sync: true, guards: [{ space: 'idx', key, expect: null }] }),
        ),
      ).toBe('CONFLICT')
      // The same bytes in another space are another key.
      await store.batch(put(bytes(2)), {
        sync: true,
        guards: [
          { space: 'idx', key, expect: bytes(1) },
          { space: 'obj', key, expect: null },
          { space: 'meta', key: 'HEAD', expect: null },
        ],
      })
      expect(numbers(await store.get('idx', key))).toEqual([2])
    })

    it('checks guards even when the batch has no ops', async () => {
      const { store } = await ctx.open()
      await seed(store)
      await store.batch([], {
        sync: true,
        guards: [{ space: 'ref', key: 'HEAD', expect: utf8('v1') }],
      })
      const stale: MetaGuard[] = [{ space: 'ref', key: 'HEAD', expect: utf8('v0') }]
      expect(await outcome(store.batch([], { sync: true, guards: stale }))).toBe('CONFLICT')
      // An empty list of guards is no guard at all.
      await store.batch(payload, { sync: false, guards: [] })
      await expectWritten(store)
    })

    it('lets exactly one of batches racing on one guarded key win', async () => {
      const { store } = await ctx.open()
      await seed(store)
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          outcome(
            store.batch(
              [
                { type: 'put', space: 'ref', key: 'HEAD', value: utf8(`racer ${i}`) },
                {
                  type: 'put',
                  space: 'log',
                  key: `by ${String(i).padStart(2, '0')}`,
                  value: bytes(i),
                },
              ],
              { sync: i % 2 === 0, guards: [{ space: 'ref', key: 'HEAD', expect: utf8('v1') }] },
            ),
          ),
        ),
      )
      const winners = results.flatMap((result, i) => (result === 'resolved' ? [i] : []))
      expect(winners).toHaveLength(1)
      expect(results.filter((result) => result === 'CONFLICT')).toHaveLength(11)
      expect(text(await store.get('ref', 'HEAD'))).toBe(`racer ${winners[0]}`)
      expect(await collect(store.keys('log'))).toEqual([
        `by ${String(winners[0]).padStart(2, '0')}`,
      ])
    })

    it('does not fail unguarded or other batches issued together with a conflicting one', async () => {
      const { store } = await ctx.open()
      await seed(store)
      const head: MetaGuard[] = [{ space: 'ref', key: 'HEAD', expect: utf8('v1') }]
      const [plain, first, second, other] = await Promise.all([
        outcome(
          store.batch([{ type: 'put', space: 'meta', key: 'plain', value: bytes(1) }], {
            sync: true,
          }),
        ),
        outcome(
          store.batch([{ type: 'put', space: 'ref', key: 'HEAD', value: utf8('first') }], {
            sync: true,
            guards: head,
          }),
        ),
        outcome(
          store.batch([{ type: 'put', space: 'ref', key: 'HEAD', value: utf8('second') }], {
            sync: true,
            guards: head,
          }),
        ),
        outcome(
          store.batch([{ type: 'put', space: 'meta', key: 'other', value: bytes(2) }], {
            sync: false,
            guards: [{ space: 'meta', key: 'other', expect: null }],
          }),
        ),
      ])
      expect([plain, other]).toEqual(['resolved', 'resolved'])
      // Exactly one of the two racing batches wins; which one is the store's business (a
      // single-process queue keeps the order issued, a database's connections need not).
      expect([first, second].sort()).toEqual(['CONFLICT', 'resolved'])
      expect(text(await store.get('ref', 'HEAD'))).toBe(first === 'resolved' ? 'first' : 'second')
      expect(numbers(await store.get('meta', 'plain'))).toEqual([1])
      expect(numbers(await store.get('meta', 'other'))).toEqual([2])
    })

    it('loses no update of a counter incremented by concurrent compare-and-set loops', async () => {
      const { store } = await ctx.open()
      const LOOPS = 20
      const PER_LOOP = 5
      let successes = 0
      let conflicts = 0
      await Promise.all(
        Array.from({ length: LOOPS }, async (_, loop) => {
          for (let done = 0; done < PER_LOOP;) {
            const seen = await store.get('meta', 'counter')
            const next = utf8(String((seen === undefined ? 0 : Number(text(seen))) + 1))
            const result = await outcome(
              store.batch(
                [
                  { type: 'put', space: 'meta', key: 'counter', value: next },
                  {
                    type: 'put',
                    space: 'log',
                    key: `${text(next)?.padStart(4, '0')}`,
                    value: bytes(loop),
                  },
                ],
                { sync: false, guards: [{ space: 'meta', key: 'counter', expect: seen ?? null }] },
              ),
            )
            if (result === 'resolved') {
              successes++
              done++
            } else {
              expect(result).toBe('CONFLICT')
              conflicts++
            }
          }
        }),
      )
      expect(successes).toBe(LOOPS * PER_LOOP)
      expect(text(await store.get('meta', 'counter'))).toBe(String(successes))
      // Each value was claimed by exactly one writer: one log entry per increment.
      expect(await collect(store.keys('log'))).toHaveLength(successes)
      expect(conflicts).toBeGreaterThan(0)
    })

    it('refuses a malformed guard with INVALID_INPUT, writing nothing', async () => {
      const { store } = await ctx.open()
      await seed(store)
      const bad = [
        { space: 'nowhere', key: 'HEAD', expect: null },
        { space: 'ref', key: bytes(1), expect: null },
        { space: 'obj', key: 'text', expect: null },
        { space: 'ref', key: 'HEAD', expect: 'v1' },
        { space: 'ref', key: 'HEAD' },
        null,
      ]
      for (const guard of bad) {
        const guards = [guard] as unknown as MetaGuard[]
        expect(await outcome(store.batch(payload, { sync: true, guards }))).toBe('INVALID_INPUT')
      }
      const notList = { length: 1 } as unknown as MetaGuard[]
      expect(await outcome(store.batch(payload, { sync: true, guards: notList }))).toBe(
        'INVALID_INPUT',
      )
      await expectUntouched(store)
    })

    it('fails a guarded batch with CLOSED once closed', async () => {
      const { store } = await ctx.open()
      await seed(store)
      await store.close()
      const guards: MetaGuard[] = [{ space: 'ref', key: 'HEAD', expect: utf8('v1') }]
      expect(await outcome(store.batch(payload, { sync: true, guards }))).toBe('CLOSED')
      expect(await outcome(store.batch([], { sync: false, guards }))).toBe('CLOSED')
    })
  })
}
