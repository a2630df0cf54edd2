import { createReadStream } from 'node:fs'
import { chunkHash, contentHash } from '@svcdb/client'

/**
 * The content hash the server gives a file (`EntryView.hash`) computed from a local file: the
 * engine's chunker (loaded on demand: only `get -r` needs it), a hash per chunk, then the
 * content hash over the chunk ids. A server with other chunker settings or another hash
 * algorithm gives other hashes: the file is then downloaded again, never wrongly skipped.
 */
export async function localContentHash(path: string): Promise<string> {
  const { chunkStream } = await import('@svcdb/engine/chunking')
  const ids: string[] = []
  for await (const chunk of chunkStream(createReadStream(path))) ids.push(await chunkHash(chunk))
  return contentHash(ids)
}
