import { createHash } from 'node:crypto'
import type { ReadBack } from './expected-state'

/** SHA-256 of bytes, lower-case hex. */
export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex')
}

interface ListingPage {
  items: { path: string; entry_type: string }[]
  next?: string
}

/**
 * Every file in HEAD with the SHA-256 of the bytes a full `GET` returns. A read that fails
 * (an error status, or a body cut short) reads back as `unreadable`; a file listed but gone
 * by the time it is read cannot happen here, since nothing else writes during the check.
 */
export async function readBackFiles(url: string, token: string): Promise<Map<string, ReadBack>> {
  const headers = { authorization: `Bearer ${token}` }
  const paths: string[] = []
  let after: string | undefined
  do {
    const query = `depth=-1&limit=10000${after === undefined ? '' : `&after=${encodeURIComponent(after)}`}`
    const res = await fetch(`${url}/files/?${query}`, { headers })
    if (res.status !== 200) throw new Error(`listing failed: ${res.status} ${await res.text()}`)
    const page = (await res.json()) as ListingPage
    for (const item of page.items) if (item.entry_type === 'file') paths.push(item.path)
    after = page.next
  } while (after !== undefined)
  const files = new Map<string, ReadBack>()
  for (const path of paths) {
    try {
      const res = await fetch(`${url}/files${path}`, { headers })
      const bytes = new Uint8Array(await res.arrayBuffer())
      files.set(path, res.status === 200 ? sha256Hex(bytes) : 'unreadable')
    } catch {
      files.set(path, 'unreadable')
    }
  }
  return files
}
