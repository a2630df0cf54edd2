/** How a file is previewed. */
export type PreviewKind =
  'text' | 'json' | 'markdown' | 'image' | 'audio' | 'video' | 'pdf' | 'none'

const TEXT_TYPES = new Set([
  'application/javascript',
  'application/xml',
  'application/x-yaml',
  'application/yaml',
  'application/toml',
  'application/x-sh',
  'application/sql',
  'image/svg+xml',
])

const TEXT_EXTENSIONS = new Set([
  'txt',
  'log',
  'csv',
  'tsv',
  'ts',
  'js',
  'mjs',
  'css',
  'html',
  'xml',
  'yaml',
  'yml',
  'toml',
  'ini',
  'sh',
  'py',
  'rs',
  'go',
  'sql',
  'svg',
])

/** The lower-case extension of `name`, without the dot ('' when it has none). */
function extension(name: string): string {
  const at = name.lastIndexOf('.')
  return at <= 0 ? '' : name.slice(at + 1).toLowerCase()
}

/**
 * How to preview a file of `contentType` named `name`: the type decides, and the name's
 * extension when the type says nothing (`application/octet-stream`, none at all). SVG is
 * shown as text: as an image it could run nothing here, but its source is what users want.
 */
export function previewKind(contentType: string | null | undefined, name: string): PreviewKind {
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? ''
  const ext = extension(name)
  if (type === 'application/json' || type.endsWith('+json') || ext === 'json') return 'json'
  if (type === 'text/markdown' || type === 'text/x-markdown' || ext === 'md' || ext === 'markdown')
    return 'markdown'
  if (TEXT_TYPES.has(type) || type.startsWith('text/')) return 'text'
  if (type.startsWith('image/')) return 'image'
  if (type.startsWith('audio/')) return 'audio'
  if (type.startsWith('video/')) return 'video'
  if (type === 'application/pdf') return 'pdf'
  if (type !== '' && type !== 'application/octet-stream') return 'none'
  if (TEXT_EXTENSIONS.has(ext)) return 'text'
  if (['png', 'jpg', 'jpeg', 'gif', 'webp', 'avif', 'bmp', 'ico'].includes(ext)) return 'image'
  if (['mp3', 'ogg', 'oga', 'wav', 'flac', 'm4a', 'opus'].includes(ext)) return 'audio'
  if (['mp4', 'webm', 'ogv', 'mov'].includes(ext)) return 'video'
  if (ext === 'pdf') return 'pdf'
  return 'none'
}

/** The kinds shown as text, of which only the first {@link TEXT_PREVIEW_BYTES} are read. */
export function isTextual(kind: PreviewKind): kind is 'text' | 'json' | 'markdown' {
  return kind === 'text' || kind === 'json' || kind === 'markdown'
}

/** How much of a text file a preview reads: 1 MiB. */
export const TEXT_PREVIEW_BYTES = 1024 * 1024

/**
 * Largest image, audio, video or PDF previewed: 50 MiB. Media is fetched whole into a Blob
 * (an element cannot send the bearer token to stream it), so a larger file is offered as a
 * download instead. Text has no such limit: only its first {@link TEXT_PREVIEW_BYTES} are read.
 */
export const MEDIA_PREVIEW_BYTES = 50 * 1024 * 1024

/** True when a file of `kind` and `size` bytes is too large to preview. */
export function tooLargeToPreview(kind: PreviewKind, size: number): boolean {
  return kind !== 'none' && !isTextual(kind) && size > MEDIA_PREVIEW_BYTES
}
