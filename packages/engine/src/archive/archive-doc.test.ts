import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { createHasher } from '../hashing/create-hasher'
import { toHex } from '../internal/hex'
import { encodeArchive, pieces, readAll, tinyFrames } from '../../test/support/archive-samples'

/** The bytes of the worked example in docs/archive-format.md (its hex dump, offsets dropped). */
function documentedExample(): Uint8Array {
  const doc = readFileSync(new URL('../../docs/archive-format.md', import.meta.url), 'utf8')
  const block = /<!-- example:start -->([\s\S]*?)<!-- example:end -->/.exec(doc)?.[1] ?? ''
  const hex = block
    .split('\n')
    .filter((line) => /^[0-9a-f]{4} {2}/.test(line))
    .map((line) => line.slice(6).replace(/\s+/g, ''))
    .join('')
  return Uint8Array.from(Buffer.from(hex, 'hex'))
}

describe('archive format document', () => {
  it('shows exactly the bytes the writer produces for its example, and they still read', async () => {
    const sha256 = await createHasher('sha256')
    const documented = documentedExample()
    expect(documented.length).toBe(378)
    expect(toHex(documented)).toBe(toHex(encodeArchive(sha256, tinyFrames(sha256))))
    const read = await readAll(pieces(documented, () => 5))
    expect(read.summary).toEqual({ frames: 3, bytes: 378 })
    expect(read.frames.map((f) => f.type)).toEqual(['chunk', 'object', 'object'])
    expect(toHex(read.header.target)).toBe(toHex(read.frames[2]?.hash ?? new Uint8Array()))
  })
})
