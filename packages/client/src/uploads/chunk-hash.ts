const encoder = new TextEncoder()
const CHUNK_PREFIX = encoder.encode('chunk:')
const CONTENT_PREFIX = encoder.encode('content:')

/** Lower-case hex of bytes. */
export function toHex(bytes: Uint8Array): string {
  let out = ''
  for (const byte of bytes) out += byte.toString(16).padStart(2, '0')
  return out
}

async function sha256(parts: readonly Uint8Array[]): Promise<Uint8Array> {
  let length = 0
  for (const part of parts) length += part.length
  const joined = new Uint8Array(length)
  let at = 0
  for (const part of parts) {
    joined.set(part, at)
    at += part.length
  }
  return new Uint8Array(await crypto.subtle.digest('SHA-256', joined))
}

/**
 * The id the server gives a chunk: SHA-256 over `chunk:` and the bytes (the engine's domain
 * separation, DESIGN §3.2), computed with WebCrypto so it runs in browsers and Node alike.
 */
export async function chunkHash(chunk: Uint8Array): Promise<string> {
  return toHex(await sha256([CHUNK_PREFIX, chunk]))
}

/** The content hash of a file made of these chunks: SHA-256 over `content:` and their ids. */
export async function contentHash(chunkHashes: readonly string[]): Promise<string> {
  const ids = chunkHashes.map((hex) => {
    const bytes = new Uint8Array(hex.length / 2)
    for (let i = 0; i < bytes.length; i++)
      bytes[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16)
    return bytes
  })
  return toHex(await sha256([CONTENT_PREFIX, ...ids]))
}
