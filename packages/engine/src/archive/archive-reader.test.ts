import { describe, expect, it } from 'vitest'
import { EngineError, isEngineError } from '../errors'
import { createHasher } from '../hashing/create-hasher'
import { readArchive } from './archive-codec'
import {
  encodeArchive,
  pieces,
  readAll,
  readError,
  sampleFrames,
  tinyFrames,
  withHashers,
} from '../../test/support/archive-samples'

const sha256 = await createHasher('sha256')
const tiny = encodeArchive(sha256, tinyFrames(sha256))
const HEADER_AND_FIRST_FRAME = 80 + 2 + 33 + 3

/** A source that records whether it was released, optionally stalling after `stallAt` bytes. */
function trackedSource(bytes: Uint8Array, options: { piece?: number; stallAt?: number } = {}) {
  const piece = options.piece ?? 16
  const state = { at: 0, returned: false, nexts: 0 }
  const iterator: AsyncIterator<Uint8Array> = {
    next() {
      state.nexts++
      if (options.stallAt !== undefined && state.at >= options.stallAt) return new Promise(() => {})
      if (state.at >= bytes.length) return Promise.resolve({ done: true, value: undefined })
      const value = bytes.subarray(state.at, state.at + piece)
      state.at += piece
      return Promise.resolve({ done: false, value })
    },
    return() {
      state.returned = true
      return Promise.resolve({ done: true, value: undefined })
    },
  }
  return { state, source: { [Symbol.asyncIterator]: () => iterator } }
}

function codeOf(err: unknown): string {
  return isEngineError(err) ? err.code : String(err)
}

describe('archive reader limits and lifecycle', () => {
  it('enforces maxBytes on the whole input', async () => {
    expect(await readError(tiny, { maxBytes: tiny.length })).toBeUndefined()
    expect(codeOf(await readError(tiny, { maxBytes: tiny.length - 1 }))).toBe('TOO_LARGE')
    expect(codeOf(await readError(tiny, { maxBytes: 50 }, () => 1))).toBe('TOO_LARGE')
  })

  it('enforces maxFrames on object and chunk frames', async () => {
    expect(await readError(tiny, { maxFrames: 3 })).toBeUndefined()
    const err = await readError(tiny, { maxFrames: 2 })
    expect(codeOf(err)).toBe('TOO_LARGE')
    expect(await readError(encodeArchive(sha256, []), { maxFrames: 0 })).toBeUndefined()
  })

  it('stops with ABORTED when the signal is already aborted', async () => {
    const { state, source } = trackedSource(tiny)
    const reading = readAll(source, { signal: AbortSignal.abort() })
    await expect(reading).rejects.toSatisfy((err) => isEngineError(err, 'ABORTED'))
    expect(state.returned).toBe(true)
  })

  it('stops with ABORTED between frames', async () => {
    const controller = new AbortController()
    const { state, source } = trackedSource(tiny, { piece: tiny.length })
    const archive = await readArchive(source, { ...withHashers, signal: controller.signal })
    expect((await archive.frames.next()).done).toBe(false)
    controller.abort(new Error('user cancelled'))
    const err = await archive.frames.next().catch((e: unknown) => e)
    expect(codeOf(err)).toBe('ABORTED')
    expect((err as EngineError).cause).toEqual(new Error('user cancelled'))
    expect(state.returned).toBe(true)
  })

  it('stops with ABORTED while the source is stalled', async () => {
    const controller = new AbortController()
    const { state, source } = trackedSource(tiny, { stallAt: HEADER_AND_FIRST_FRAME + 10 })
    const archive = await readArchive(source, { ...withHashers, signal: controller.signal })
    expect((await archive.frames.next()).done).toBe(false)
    const next = archive.frames.next()
    setTimeout(() => controller.abort(), 20)
    await expect(next).rejects.toSatisfy((err) => isEngineError(err, 'ABORTED'))
    expect(state.returned).toBe(true)
  })

  it('releases the source on a defect in the header or in a frame', async () => {
    const badMagic = tiny.map((b, i) => (i === 0 ? 0 : b))
    const badFrame = tiny.map((b, i) => (i === HEADER_AND_FIRST_FRAME - 1 ? b ^ 1 : b))
    for (const bytes of [badMagic, badFrame, tiny.subarray(0, 100)]) {
      const { state, source } = trackedSource(bytes)
      expect(codeOf(await readAll(source).catch((e: unknown) => e))).toBe('INVALID_ARCHIVE')
      expect(state.returned || state.at >= bytes.length).toBe(true)
    }
    const { state, source } = trackedSource(badFrame, { piece: 1 })
    await readAll(source).catch(() => {})
    expect(state.returned).toBe(true)
  })

  it('releases the source when the consumer stops early, or never starts', async () => {
    const first = trackedSource(tiny)
    const archive = await readArchive(first.source, withHashers)
    for await (const frame of archive.frames) {
      expect(frame.type).toBe('chunk')
      break
    }
    expect(first.state.returned).toBe(true)

    const second = trackedSource(tiny)
    const unread = await readArchive(second.source, withHashers)
    await unread.frames.return(undefined as never)
    expect(second.state.returned).toBe(true)
  })

  it('ends a fully read source naturally and reads nothing past its end', async () => {
    const { state, source } = trackedSource(tiny, { piece: 7 })
    const read = await readAll(source)
    expect(read.summary).toEqual({ frames: 3, bytes: tiny.length })
    expect(state.returned).toBe(false)
    expect(state.nexts).toBe(Math.ceil(tiny.length / 7) + 1)
  })

  it('passes on the refusal of hasherFor and releases the source', async () => {
    const refusal = new EngineError('INVALID_HASH', 'this database uses blake3')
    const { state, source } = trackedSource(tiny)
    const opening = readArchive(source, { hasherFor: () => Promise.reject(refusal) })
    await expect(opening).rejects.toBe(refusal)
    expect(state.returned).toBe(true)
  })

  it('returns frame bytes as views of the source buffers and ids as copies', async () => {
    const frames = sampleFrames(sha256)
    const bytes = encodeArchive(sha256, frames)
    const read = await readAll(pieces(bytes, () => bytes.length))
    const chunk = read.frames.find((f) => f.bytes.length === 262_144)
    expect(chunk?.bytes.buffer).toBe(bytes.buffer)
    expect(chunk?.hash.buffer).not.toBe(bytes.buffer) // ids are copies, safe to keep
  })
})
