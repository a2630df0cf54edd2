import type { Client } from '@svcdb/client'

/** How long a blob URL outlives the click that saves it; browsers read it asynchronously. */
const REVOKE_AFTER_MS = 60_000

/**
 * Fetches the file at `path` with the client (so the bearer token goes with it) and hands it
 * to the browser's download manager as a blob URL named `name`.
 */
export async function saveDownload(client: Client, path: string, name: string): Promise<void> {
  const download = await client.files.read(path)
  if (download === undefined) throw new Error(`${path}: the server sent no content`)
  const bytes = await new Response(download.body).blob()
  const url = URL.createObjectURL(new Blob([bytes], { type: download.contentType }))
  const link = document.createElement('a')
  link.href = url
  link.download = name
  link.hidden = true
  document.body.append(link)
  link.click()
  link.remove()
  setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS)
}
