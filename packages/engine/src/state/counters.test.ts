import { describe, expect, it } from 'vitest'
import { Counters } from './counters'

const start = () =>
  new Counters({ chunks: 3, chunkRawBytes: 300, chunkStoredBytes: 200, voidBytes: 5 })

describe('Counters', () => {
  it('previews a tally without applying it, and applies it when the group is durable', () => {
    const counters = start()
    const tally = { chunks: 2, rawBytes: 20, storedBytes: 10 }
    expect(counters.after(tally)).toEqual({
      chunks: 5,
      chunkRawBytes: 320,
      chunkStoredBytes: 210,
      voidBytes: 5,
    })
    expect(counters.value.chunks).toBe(3)
    counters.apply(tally)
    expect(counters.value).toEqual(counters.after({ chunks: 0, rawBytes: 0, storedBytes: 0 }))
    expect(counters.value.chunkStoredBytes).toBe(210)
  })

  it('takes swept chunks off and records what the sweep wrote', () => {
    const counters = start()
    const next = counters.withoutChunks({ chunks: 1, rawBytes: 100, storedBytes: 50 })
    expect(next).toEqual({ chunks: 2, chunkRawBytes: 200, chunkStoredBytes: 150, voidBytes: 5 })
    expect(counters.value.chunks).toBe(3)
    counters.swept(next)
    expect(counters.value).toEqual(next)
  })

  it('counts void bytes of failed writes and resets them to what compaction measured', () => {
    const counters = start()
    counters.addVoidBytes(7)
    expect(counters.value.voidBytes).toBe(12)
    counters.setVoidBytes(1)
    expect(counters.value.voidBytes).toBe(1)
  })
})
