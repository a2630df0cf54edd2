/**
 * The URL of `GET /files/<path>` on `baseUrl`, each segment encoded as the client encodes it.
 * It is what a download link points at; the bytes themselves are fetched with the client,
 * which sends the bearer token a plain link could not.
 */
export function fileUrl(baseUrl: string, path: string): string {
  const segments = path.split('/').filter((segment) => segment !== '')
  return `${baseUrl.replace(/\/+$/, '')}/files/${segments.map(encodeURIComponent).join('/')}`
}
