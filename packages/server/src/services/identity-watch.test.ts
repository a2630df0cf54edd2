import { describe, expect, it } from 'vitest'
import { watchIdentityChanges } from './identity-watch'

/** A store's write notifications, fired by hand. */
function manualWatch() {
  const listeners = new Set<() => void>()
  return {
    watch(listener: () => void) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    notify: () => {
      for (const listener of listeners) listener()
    },
    get size() {
      return listeners.size
    },
  }
}

describe('watchIdentityChanges', () => {
  it('checks once per notification, folding those during a check into one more', async () => {
    const store = manualWatch()
    let checks = 0
    let release: () => void = () => undefined
    const auth = {
      checkExternalChanges: () => {
        checks++
        return new Promise<boolean>((resolve) => (release = () => resolve(true)))
      },
    }
    const stop = watchIdentityChanges(store, auth, () => undefined)
    store.notify()
    expect(checks).toBe(1)
    store.notify()
    store.notify()
    store.notify()
    expect(checks).toBe(1)
    release()
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(checks).toBe(2)
    release()
    await new Promise((resolve) => setTimeout(resolve, 0))
    // Stopping waits for a check under way, then no notification reaches it.
    store.notify()
    const stopped = stop()
    expect(store.size).toBe(0)
    release()
    await stopped
    store.notify()
    expect(checks).toBe(3)
  })

  it('reports a failed check and goes on', async () => {
    const store = manualWatch()
    const errors: unknown[] = []
    let calls = 0
    const auth = {
      checkExternalChanges: async () => {
        calls++
        if (calls === 1) throw new Error('store down')
        return false
      },
    }
    const stop = watchIdentityChanges(store, auth, (err) => errors.push(err))
    store.notify()
    await new Promise((resolve) => setTimeout(resolve, 0))
    store.notify()
    await stop()
    expect(calls).toBe(2)
    expect(errors).toHaveLength(1)
  })
})
