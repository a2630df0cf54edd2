import { createHash } from 'node:crypto'
import { domainPrefix } from './hash-domain'
import type { Hasher, HashStream } from './hasher'

/** A plain `Uint8Array` view of a digest (node:crypto returns a `Buffer`). */
function view(digest: Buffer): Uint8Array {
  return new Uint8Array(digest.buffer, digest.byteOffset, digest.length)
}

/** SHA-256 through node:crypto (OpenSSL, with SHA extensions where the CPU has them). */
export function createSha256Hasher(): Hasher {
  return {
    algorithm: 'sha256',
    hashDomain(domain, bytes) {
      return view(createHash('sha256').update(domainPrefix(domain)).update(bytes).digest())
    },
    createStream(): HashStream {
      const hash = createHash('sha256')
      return {
        update(data) {
          hash.update(data)
        },
        digest() {
          return view(hash.digest())
        },
      }
    },
  }
}
