import { createHash } from 'node:crypto'
import fc from 'fast-check'
import { MemoryLevel } from 'memory-level'
import { describe, expect, it } from 'vitest'
import { isEngineError } from '../errors'
import type { Hasher } from '../hashing/hasher'
import { toHex } from '../internal/hex'
import { createLevelMetaStore } from '../meta/level-meta-store'
import { ObjectStore, WriteSet } from '../objects/object-store'
import type { DirEntry } from '../objects/tree-objects'
import { loadPage } from './prolly/prolly-read'
import { editAtPath, emptyDirectory } from './tree-edit'
import type { EntryChange } from './tree-edit'
import { editManyAtPaths } from './tree-edit-many'
import type { PathChange } from './tree-edit-many'

const hasher: Hasher = {
  algorithm: 'sha256',
  hashDomain: (domain, bytes) =>
    new Uint8Array(createHash('sha256').update(`${domain}:`).update(bytes).digest()),
  createStream: () => {
    const h = createHash('sha256')
    return { update: (d) => void h.update(d), digest: () => new Uint8Array(h.digest()) }
  },
}

function freshObjects(): WriteSet {
  return new WriteSet(new ObjectStore(createLevelMetaStore(new MemoryLevel()), hasher, 64 << 20))
}

/** An operation of the model: write a file (content `seed`), delete, or make a directory. */
type Op =
  | { kind: 'write'; segments: string[]; seed: number }
  | { kind: 'delete'; segments: string[] }
  | { kind: 'mkdir'; segments: string[] }

function changeOf(op: Op, now: number, objects: WriteSet): EntryChange {
  const name = op.segments[op.segments.length - 1] as string
  switch (op.kind) {
    case 'write':
      return (existing) => {
        if (existing?.kind === 'directory') throw new Error('a directory is there')
        const hash = hasher.hashDomain('file', new TextEncoder().encode(`${op.seed}`))
        const createdAt = existing?.createdAt ?? now
        const entry: DirEntry = {
          name,
          kind: 'file',
          hash,
          size: op.seed,
          createdAt,
          updatedAt: now,
          files: 0,
          dirs: 0,
          links: 0,
        }
        return entry
      }
    case 'delete':
      return (existing) => (existing === undefined ? undefined : null)
    case 'mkdir':
      return (existing) => {
        if (existing?.kind === 'directory') return undefined
        if (existing !== undefined) throw new Error('a file is there')
        const hash = emptyDirectory(objects)
        return {
          name,
          kind: 'directory',
          hash,
          size: 0,
          createdAt: now,
          updatedAt: now,
          files: 0,
          dirs: 0,
          links: 0,
        }
      }
  }
}

/** Applies ops one by one with `editAtPath`; `undefined` when one of them throws. */
async function oneByOne(
  objects: WriteSet,
  root: Uint8Array,
  ops: readonly Op[],
  now: number,
  createParents = true,
): Promise<Uint8Array | undefined> {
  let hash = root
  try {
    for (const op of ops)
      hash = (
        await editAtPath(objects, hash, op.segments, changeOf(op, now, objects), {
          createParents,
          now,
        })
      ).hash
  } catch {
    return undefined
  }
  return hash
}

async function atOnce(
  objects: WriteSet,
  root: Uint8Array,
  ops: readonly Op[],
  now: number,
  createParents = true,
): Promise<Uint8Array | undefined> {
  const changes: PathChange[] = ops.map((op) => ({
    segments: op.segments,
    change: changeOf(op, now, objects),
  }))
  try {
    return (await editManyAtPaths(objects, root, changes, { createParents, now })).hash
  } catch {
    return undefined
  }
}

// Few names, so paths collide: files where directories are wanted, writes then deletes.
const segmentsArb = fc.array(fc.constantFrom('a', 'b', 'c', 'd'), { minLength: 1, maxLength: 3 })
// Many names in one directory, so it spans several prolly pages.
const wideArb = fc.integer({ min: 0, max: 400 }).map((n) => ['wide', `n${n}`])
const pathArb = fc.oneof(segmentsArb, wideArb)
const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('write' as const),
      segments: pathArb,
      seed: fc.nat(50),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('delete' as const), segments: pathArb }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('mkdir' as const), segments: pathArb }) },
)

describe('editManyAtPaths', () => {
  it('gives the same root as applying the changes one by one with editAtPath', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(opArb, { maxLength: 300 }),
        // Short batches too: changes that cancel out (write, then delete) only show alone.
        fc.oneof(
          fc.array(opArb, { minLength: 1, maxLength: 4 }),
          fc.array(opArb, { minLength: 1, maxLength: 200 }),
        ),
        fc.boolean(),
        async (base, batch, createParents) => {
          const objects = freshObjects()
          // The starting tree, built one by one at an earlier time (ops that fail are dropped).
          let root = emptyDirectory(objects)
          for (const op of base) root = (await oneByOne(objects, root, [op], 1)) ?? root
          const expected = await oneByOne(objects, root, batch, 2, createParents)
          const actual = await atOnce(objects, root, batch, 2, createParents)
          expect(actual === undefined ? undefined : toHex(actual)).toBe(
            expected === undefined ? undefined : toHex(expected),
          )
        },
      ),
      { numRuns: 150 },
    )
  })

  it('rewrites each touched directory once, leaving far fewer pages than one edit per path', async () => {
    const ops: Op[] = Array.from({ length: 500 }, (_, i) => ({
      kind: 'write',
      segments: [`d${i % 5}`, `f${i}`],
      seed: i,
    }))
    const single = freshObjects()
    await oneByOne(single, emptyDirectory(single), ops, 1)
    const many = freshObjects()
    await atOnce(many, emptyDirectory(many), ops, 1)
    // One by one leaves every intermediate page; at once only the final tree.
    expect(many.size * 10).toBeLessThan(single.size)
  })

  it('stamps the directories above a file written then deleted, as one by one does', async () => {
    const objects = freshObjects()
    const base: Op[] = [{ kind: 'write', segments: ['a', 'b', 'keep'], seed: 1 }]
    const root = (await oneByOne(objects, emptyDirectory(objects), base, 1)) as Uint8Array
    const batch: Op[] = [
      { kind: 'write', segments: ['a', 'b', 'new'], seed: 2 },
      { kind: 'delete', segments: ['a', 'b', 'new'] },
    ]
    const expected = (await oneByOne(objects, root, batch, 2)) as Uint8Array
    expect(toHex(expected)).not.toBe(toHex(root))
    expect(toHex((await atOnce(objects, root, batch, 2)) as Uint8Array)).toBe(toHex(expected))
  })

  it('names the path that is not a directory', async () => {
    const objects = freshObjects()
    const root = (await oneByOne(
      objects,
      emptyDirectory(objects),
      [{ kind: 'write', segments: ['a', 'file'], seed: 1 }],
      1,
    )) as Uint8Array
    const changes: PathChange[] = [
      {
        segments: ['a', 'ok'],
        change: changeOf({ kind: 'write', segments: ['a', 'ok'], seed: 2 }, 2, objects),
      },
      {
        segments: ['a', 'file', 'x'],
        change: changeOf({ kind: 'write', segments: ['a', 'file', 'x'], seed: 3 }, 2, objects),
      },
    ]
    const err = await editManyAtPaths(objects, root, changes, {
      createParents: true,
      now: 2,
    }).catch((e: unknown) => e)
    expect(isEngineError(err, 'NOT_A_DIRECTORY')).toBe(true)
    expect((err as Error).message).toContain('/a/file')
    // The tree it started from is untouched.
    expect((await loadPage(objects, root)).type).toBe('leaf')
  })

  it('refuses a missing parent without createParents and the root itself', async () => {
    const objects = freshObjects()
    const root = emptyDirectory(objects)
    const write = changeOf({ kind: 'write', segments: ['x', 'y'], seed: 1 }, 1, objects)
    await expect(
      editManyAtPaths(objects, root, [{ segments: ['x', 'y'], change: write }], {
        createParents: false,
        now: 1,
      }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' })
    await expect(
      editManyAtPaths(objects, root, [{ segments: [], change: write }], {
        createParents: true,
        now: 1,
      }),
    ).rejects.toMatchObject({ code: 'INVALID_PATH' })
  })
})
