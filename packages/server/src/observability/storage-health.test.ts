import { describe, expect, it } from 'vitest'
import { createStorageHealth } from './storage-health'

const coded = (code: string) => Object.assign(new Error(code), { code })

describe('createStorageHealth', () => {
  it('is full from an INSUFFICIENT_STORAGE failure until the next successful write', () => {
    const transitions: boolean[] = []
    const storage = createStorageHealth({ onTransition: (full) => transitions.push(full) })
    expect(storage.full()).toBe(false)
    storage.observeError(coded('NOT_FOUND'))
    storage.observeError(undefined)
    expect(storage.full()).toBe(false)
    storage.observeError(coded('INSUFFICIENT_STORAGE'))
    storage.observeError(coded('INSUFFICIENT_STORAGE'))
    expect(storage.full()).toBe(true)
    storage.writeSucceeded()
    storage.writeSucceeded()
    expect(storage.full()).toBe(false)
    expect(transitions).toEqual([true, false])
  })
})
