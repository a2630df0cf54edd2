import { createBLAKE3 } from 'hash-wasm'
import type { IHasher } from 'hash-wasm'
import { domainPrefix } from './hash-domain'
import type { Hasher, HashStream } from './hasher'

/**
 * BLAKE3 through hash-wasm. Instances are created asynchronously but `createStream()` is
 * synchronous, so every stream shares one WebAssembly instance: the stream that last used it
 * owns it, and another user first saves the owner's state (`save()`) and restores its own
 * (`load()`). A lone stream never pays for the switch.
 */
export async function createBlake3Hasher(): Promise<Hasher> {
  const wasm: IHasher = await createBLAKE3()

  interface StreamState {
    saved: Uint8Array | undefined
    done: boolean
  }
  let owner: StreamState | undefined

  /** Gives the instance to `next` (undefined: a one-shot hash that starts from `init()`). */
  function take(next: StreamState | undefined): void {
    if (owner === next && next !== undefined) return
    if (owner !== undefined) owner.saved = wasm.save()
    owner = next
    if (next === undefined) wasm.init()
    else if (next.saved === undefined) wasm.init()
    else wasm.load(next.saved)
  }

  return {
    algorithm: 'blake3',
    hashDomain(domain, bytes) {
      take(undefined)
      wasm.update(domainPrefix(domain))
      wasm.update(bytes)
      return wasm.digest('binary')
    },
    createStream(): HashStream {
      const state: StreamState = { saved: undefined, done: false }
      const live = (): void => {
        if (state.done) throw new Error('this hash stream was already digested')
        take(state)
      }
      return {
        update(data) {
          live()
          wasm.update(data)
        },
        digest() {
          live()
          const digest = wasm.digest('binary')
          owner = undefined
          state.done = true
          state.saved = undefined
          return digest
        },
      }
    },
  }
}
