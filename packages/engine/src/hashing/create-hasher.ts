import { createBlake3Hasher } from './blake3-hasher'
import type { HashAlgorithm, Hasher } from './hasher'
import { createSha256Hasher } from './sha256-hasher'

/**
 * A {@link Hasher} for `algorithm`: `sha256` (node:crypto, the default) or `blake3`
 * (WebAssembly through hash-wasm). Throws `RangeError` for any other name.
 *
 * @example
 * const hasher = await createHasher('sha256')
 * const id = hasher.hashDomain('chunk', bytes) // sha256("chunk:" + bytes)
 */
export async function createHasher(algorithm: HashAlgorithm): Promise<Hasher> {
  switch (algorithm) {
    case 'sha256':
      return createSha256Hasher()
    case 'blake3':
      return createBlake3Hasher()
    default:
      throw new RangeError(
        `unknown hash algorithm ${JSON.stringify(algorithm)}; use sha256 or blake3`,
      )
  }
}
