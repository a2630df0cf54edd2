import type { Client } from '@svcdb/client'
import { sourceSelector } from './browse-source'
import type { BrowseSource } from './browse-source'

/** How long a blob URL outlives the click that saves it; browsers read it asynchronously. */
const REVOKE_AFTER_MS = 60_000

/**
 * Fetches file `path` of a fork or snapshot with the client (so the bearer token goes with it)
 * and hands it to the browser's download manager as a blob URL named `name`. The Files
 * screen's `saveDownload` reads HEAD only, hence this one.
 */
export async function saveSourceFile(
  client: Client,
  source: BrowseSource,
  path: string,
  name: string,
): Promise<void> {
  const download = await client.files.read(path, sourceSelector(source))
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
