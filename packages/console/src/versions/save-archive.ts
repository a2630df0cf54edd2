import type { ArchiveDownload } from '@svcdb/client'

/** How long a blob URL outlives the click that saves it; browsers read it asynchronously. */
const REVOKE_AFTER_MS = 60_000

/**
 * Hands an archive streaming from the server to the browser's download manager, under the
 * server's file name. It is read whole first: a blob URL is the only download a page can
 * start for a response fetched with a bearer token.
 */
export async function saveArchive(archive: ArchiveDownload): Promise<void> {
  const blob = await new Response(archive.body).blob()
  const url = URL.createObjectURL(new Blob([blob], { type: 'application/octet-stream' }))
  const link = document.createElement('a')
  link.href = url
  link.download = archive.filename
  link.hidden = true
  document.body.append(link)
  link.click()
  link.remove()
  setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS)
}
