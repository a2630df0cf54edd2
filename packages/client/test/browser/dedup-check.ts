import { createClient } from '@svcdb/client'
import type { Client } from '@svcdb/client'
import type { PageResults } from './page-report'

const SIZE = 1024 * 1024

/**
 * Uploads 1 MiB, then the same bytes with a small edit, counting the chunk bytes sent: only
 * when the engine's chunker and WebCrypto's SHA-256 give the server's chunk ids in the
 * browser does the second upload send just the edited chunk.
 */
export async function dedupCheck(baseUrl: string, apiKey: string): Promise<PageResults['upload']> {
  let sent = 0
  const countingFetch: typeof fetch = (input, init) => {
    const url = input instanceof Request ? input.url : String(input)
    if (new URL(url).pathname.startsWith('/uploads/chunks/')) sent += bodySize(init?.body)
    return fetch(input, init)
  }
  const client: Client = createClient({ baseUrl, apiKey, fetch: countingFetch })

  const bytes = pseudoRandomBytes(SIZE)
  const first = await client.files.upload('/big.bin', bytes)
  const firstSent = sent

  sent = 0
  const edited = bytes.slice()
  edited.set(new TextEncoder().encode('a small edit in the middle'), SIZE / 2)
  const second = await client.files.upload('/big.bin', edited)
  const secondSent = sent

  const readBack = await client.files.readBytes('/big.bin')
  return {
    size: second.size,
    firstSent,
    secondSent,
    hashesDiffer: first.hash !== second.hash,
    readBackMatches: readBack.length === edited.length && readBack.every((b, i) => b === edited[i]),
  }
}

// The client sends chunks as bytes; anything else counts as NaN so the test notices.
function bodySize(body: BodyInit | null | undefined): number {
  if (body instanceof Uint8Array) return body.byteLength
  if (body instanceof ArrayBuffer) return body.byteLength
  if (body instanceof Blob) return body.size
  return Number.NaN
}

// xorshift32: incompressible-looking bytes without `crypto.getRandomValues`'s 64 KiB limit.
function pseudoRandomBytes(size: number): Uint8Array {
  const out = new Uint8Array(size)
  let x = 0x9e3779b9
  for (let i = 0; i < size; i++) {
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    out[i] = x & 0xff
  }
  return out
}
