import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { openMemoryDatabase } from '../../test/engine-test-kit'
import type { Database } from '../database'
import type { Condition, OrderBy } from '../read/query-types'

// The documents' fields and the types the configuration declares for them.
const TYPES = { '/a': 'number', '/b': 'string', '/c': 'number' } as const
type Field = keyof typeof TYPES | '@size'
type Doc = Record<string, unknown>

const value = fc.oneof(
  fc.integer({ min: -3, max: 3 }),
  fc.constantFrom('', 'x', 'xy', 'y', 'ab'),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.integer({ min: -2, max: 2 }), { maxLength: 2 }),
)
const doc = fc.record(
  { a: value, b: value, c: fc.integer({ min: 0, max: 4 }) },
  { requiredKeys: [] },
)

const fieldArb = fc.constantFrom<Field>('/a', '/b', '/c', '@size')
// Operands near the documents' values, so that ranges start and end on stored values.
const operand = (field: Field): fc.Arbitrary<string | number> =>
  field === '/b'
    ? fc.constantFrom('', 'x', 'xy', 'y', 'ab')
    : field === '/a'
      ? fc.integer({ min: -3, max: 3 })
      : field === '/c'
        ? fc.integer({ min: 0, max: 4 })
        : fc.integer({ min: 12, max: 40 })
const comparison: fc.Arbitrary<Condition> = fieldArb.chain((field) =>
  fc.oneof(
    fc.record({
      field: fc.constant(field),
      op: fc.constantFrom(
        'eq' as const,
        'neq' as const,
        'gt' as const,
        'gte' as const,
        'lt' as const,
        'lte' as const,
      ),
      value: operand(field),
    }),
    fc.record({
      field: fc.constant(field),
      op: fc.constant('in' as const),
      value: fc.array(operand(field), { minLength: 1, maxLength: 3 }),
    }),
    fc.record({
      field: fc.constant(field),
      op: fc.constant('exists' as const),
      value: fc.boolean(),
    }),
    field === '/b'
      ? fc.record({
          field: fc.constant(field),
          op: fc.constantFrom('prefix' as const, 'contains' as const),
          value: operand(field),
        })
      : fc.record({
          field: fc.constant(field),
          op: fc.constant('contains' as const),
          value: operand(field),
        }),
  ),
)
const condition: fc.Arbitrary<Condition> = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    comparison,
    fc.record({ and: fc.array(tie('node'), { minLength: 1, maxLength: 3 }) }),
    fc.record({ or: fc.array(tie('node'), { minLength: 1, maxLength: 3 }) }),
    fc.record({ not: tie('node') }),
  ),
})).node as fc.Arbitrary<Condition>

/** A comparison on `field` of the kinds an index turns into a key range. */
const rangeOn = (field: Field): fc.Arbitrary<Condition> =>
  fc.record({
    field: fc.constant(field),
    op: fc.constantFrom(
      'eq' as const,
      'gt' as const,
      'gte' as const,
      'lt' as const,
      'lte' as const,
      ...(field === '/b' ? (['prefix'] as const) : []),
    ),
    value: operand(field),
  })

const orderArb = fc.record({
  field: fc.constantFrom<Field | '@path'>('@path', '/a', '/b', '/c', '@size'),
  direction: fc.constantFrom('asc' as const, 'desc' as const),
})

/** The documented semantics, written out independently of the engine. */
function typed(field: Field, raw: unknown): number | string | undefined {
  const type = field === '@size' ? 'number' : TYPES[field]
  if (type === 'number') return typeof raw === 'number' && Number.isFinite(raw) ? raw : undefined
  return typeof raw === 'string' ? raw : undefined
}
function read(field: Field, d: Doc, size: number): unknown {
  return field === '@size' ? size : d[field.slice(1)]
}
function holds(c: Condition, d: Doc, size: number): boolean {
  if ('and' in c) return c.and.every((x) => holds(x, d, size))
  if ('or' in c) return c.or.some((x) => holds(x, d, size))
  if ('not' in c) return !holds(Array.isArray(c.not) ? (c.not[0] as Condition) : c.not, d, size)
  const field = c.field as Field
  const raw = read(field, d, size)
  if (c.op === 'exists') return (raw !== undefined) === (c.value !== false)
  if (c.op === 'contains') {
    if (Array.isArray(raw)) return raw.some((x) => typed(field, x) === c.value)
    return typeof raw === 'string' && field === '/b' && raw.includes(c.value as string)
  }
  const v = typed(field, raw)
  if (v === undefined) return false
  const w = c.value as number | string
  switch (c.op) {
    case 'eq':
      return v === w
    case 'neq':
      return v !== w
    case 'gt':
      return v > w
    case 'gte':
      return v >= w
    case 'lt':
      return v < w
    case 'lte':
      return v <= w
    case 'in':
      return (c.value as unknown[]).includes(v)
    case 'prefix':
      return typeof v === 'string' && v.startsWith(w as string)
  }
}
function expected(docs: Map<string, Doc>, where: Condition, order: OrderBy): string[] {
  const rows: { name: string; key: number | string }[] = []
  for (const [name, d] of docs) {
    const size = new TextEncoder().encode(JSON.stringify(d)).length
    if (!holds(where, d, size)) continue
    if (order.field === '@path') rows.push({ name, key: name })
    else {
      const v = typed(order.field as Field, read(order.field as Field, d, size))
      if (v !== undefined) rows.push({ name, key: v })
    }
  }
  rows.sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : x.name < y.name ? -1 : 1))
  if (order.direction === 'desc') rows.reverse()
  return rows.map((r) => `/d/${r.name}`)
}

async function answer(db: Database, where: Condition, order: OrderBy, limit: number) {
  const paths: string[] = []
  let after: string | undefined
  const plans = new Set<string>()
  for (let pages = 0; pages < 100; pages++) {
    const page = await db.query({
      path: '/d',
      where,
      orderBy: order,
      limit,
      ...(after === undefined ? {} : { after }),
    })
    plans.add(page.plan)
    paths.push(...page.items.map((i) => i.path))
    if (page.next === undefined) return { paths, plans }
    after = page.next
  }
  throw new Error('too many pages')
}

describe('queries (property)', () => {
  it('answer exactly what a brute-force scan does, with or without indexes, before and after edits', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.dictionary(fc.stringMatching(/^[a-e][a-e]?\.json$/), doc, { maxKeys: 12 }),
        fc.array(fc.tuple(fc.stringMatching(/^[a-e][a-e]?\.json$/), fc.option(doc)), {
          maxLength: 5,
        }),
        fc.array(
          orderArb.chain((order) =>
            fc.tuple(
              // Half the queries narrow the order field (or any field, by path), so index
              // ranges start and stop on stored values.
              fc.oneof(
                condition,
                fc
                  .tuple(
                    order.field === '@path'
                      ? fieldArb.chain(rangeOn)
                      : rangeOn(order.field as Field),
                    fc.option(condition),
                  )
                  .map(([range, rest]): Condition =>
                    rest === null ? range : { and: [range, rest] },
                  ),
              ),
              fc.constant(order),
              fc.integer({ min: 1, max: 4 }),
            ),
          ),
          { minLength: 1, maxLength: 4 },
        ),
        async (initial, edits, queries) => {
          const { db } = await openMemoryDatabase()
          try {
            const docs = new Map(Object.entries(initial))
            for (const [name, d] of docs) await db.writeFile(`/d/${name}`, JSON.stringify(d))
            await db.writeFile(
              '/d/.svcdb/indexes.json',
              JSON.stringify({
                indexes: [
                  ...Object.entries(TYPES).map(([field, type]) => ({ field, type })),
                  { field: '@size', type: 'number' },
                ],
              }),
            )
            const check = async () => {
              for (const [where, order, limit] of queries) {
                const got = await answer(db, where, order, limit)
                expect(got.paths).toEqual(expected(docs, where, order))
              }
            }
            await check() // scans: nothing is indexed yet
            await db.reindex('/d')
            await check()
            for (const [name, d] of edits) {
              if (d === null) {
                if (docs.delete(name)) await db.delete(`/d/${name}`)
              } else {
                docs.set(name, d)
                await db.writeFile(`/d/${name}`, JSON.stringify(d))
              }
            }
            await check() // the indexes were carried over each edit
            const plan = await db.query({ path: '/d', orderBy: '/c' })
            expect(plan.plan).toBe('index')
          } finally {
            await db.close()
          }
        },
      ),
      { numRuns: 200 },
    )
  }, 120_000)
})
