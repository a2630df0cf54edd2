import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import { commitManyBodySchema, MAX_COMMIT_MANY_FILES } from './uploads'

const hash = 'ab'.repeat(32)
const file = (i: number) => ({ path: `/d/f${i}`, chunks: [{ hash, size: 3 }] })
const files = (count: number) => Array.from({ length: count }, (_, i) => file(i))

describe('commitManyBodySchema', () => {
  it('takes up to MAX_COMMIT_MANY_FILES files with chunks, content types, hashes and metadata', () => {
    expect(v.safeParse(commitManyBodySchema, { files: files(MAX_COMMIT_MANY_FILES) }).success).toBe(
      true,
    )
    const full = {
      path: '/a',
      chunks: [],
      content_type: 'text/plain',
      hash,
      metadata: { tag: 'x', n: 1 },
    }
    expect(v.parse(commitManyBodySchema, { files: [full] }).files[0]).toEqual(full)
  })

  it('refuses more files than the limit, none, and metadata that is not an object', () => {
    const tooMany = v.safeParse(commitManyBodySchema, { files: files(MAX_COMMIT_MANY_FILES + 1) })
    expect(tooMany.success).toBe(false)
    expect(tooMany.issues?.[0]?.message).toContain(`at most ${MAX_COMMIT_MANY_FILES} files`)
    expect(v.safeParse(commitManyBodySchema, { files: [] }).success).toBe(false)
    for (const metadata of [[1], 'text', null])
      expect(v.safeParse(commitManyBodySchema, { files: [{ ...file(0), metadata }] }).success).toBe(
        false,
      )
    expect(
      v.safeParse(commitManyBodySchema, { files: [{ path: '/a', chunks: [{ hash, size: 0 }] }] })
        .success,
    ).toBe(false)
  })
})
