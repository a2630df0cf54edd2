import { fileTypeFromBuffer } from 'file-type'
import mime from 'mime'

/** Bytes looked at to guess a content type from the bytes (file-type's reasonable sample). */
export const SNIFF_BYTES = 4100

/** What a file nothing says anything about is stored as. */
export const UNKNOWN_CONTENT_TYPE = 'application/octet-stream'

/**
 * Content types HTTP tools send when their user said nothing (`curl --data` sends a form
 * type, many libraries octet-stream): a file is not stored as one of these unless asked
 * through the API's own `content_type` field.
 */
const TOOL_DEFAULTS = new Set(['application/octet-stream', 'application/x-www-form-urlencoded'])
/** What `fetch` sends with a string body, exactly so (the Fetch standard's spelling). */
const FETCH_STRING_DEFAULT = 'text/plain;charset=UTF-8'

// `.ts` is MPEG transport stream in the MIME registry, and TypeScript everywhere else.
const TYPESCRIPT = /\.[mc]?ts$/i
// An MPEG transport stream starts with its sync byte.
const MPEG_TS_SYNC = 0x47

/**
 * The content type a name gives, from the MIME registry (the `mime` package): `README.md`
 * `text/markdown`, `a.json` `application/json`; `undefined` when the name says nothing
 * (`Makefile`, `a.svcdb`). A `.ts` name is TypeScript unless its bytes start as a transport
 * stream does.
 */
export function contentTypeOfName(path: string, head?: Uint8Array): string | undefined {
  const name = path.slice(path.lastIndexOf('/') + 1)
  const type = typeOfExtension(name)
  if (type === 'video/mp2t' && TYPESCRIPT.test(name))
    return head !== undefined && head[0] === MPEG_TS_SYNC ? type : 'application/typescript'
  return type
}

/** True when the name alone cannot decide, so the bytes must be looked at. */
export function needsBytes(path: string): boolean {
  const name = path.slice(path.lastIndexOf('/') + 1)
  const type = typeOfExtension(name)
  return type === undefined || (type === 'video/mp2t' && TYPESCRIPT.test(name))
}

// Only an extension names a type: `mime` would read a bare `pic` or `json` as one, and a
// dotfile (`.env`) has none.
function typeOfExtension(name: string): string | undefined {
  const dot = name.lastIndexOf('.')
  if (dot <= 0 || dot === name.length - 1) return undefined
  return mime.getType(name.slice(dot + 1)) ?? undefined
}

/**
 * The one rule for a written file's content type, on every write path (PUT, uploads commit,
 * bulk commit): the writer's own declaration when it is one (not a tool's default), else the
 * file name through the MIME registry, else the first bytes (`head`, up to
 * {@link SNIFF_BYTES}: magic numbers through `file-type`, then UTF-8 text), else
 * `application/octet-stream`.
 *
 * @example
 * await resolveContentType({ path: '/docs/README.md' }) // 'text/markdown'
 * await resolveContentType({ path: '/bin/Makefile', head: utf8('all:\n') }) // 'text/plain; charset=utf-8'
 */
export async function resolveContentType(input: {
  path: string
  declared?: string | undefined
  head?: Uint8Array | undefined
}): Promise<string> {
  const declared = declaredContentType(input.declared)
  if (declared !== undefined) return declared
  const byName = contentTypeOfName(input.path, input.head)
  if (byName !== undefined) return byName
  const head = input.head
  if (head === undefined || head.length === 0) return UNKNOWN_CONTENT_TYPE
  const sample = head.length > SNIFF_BYTES ? head.subarray(0, SNIFF_BYTES) : head
  const found = await fileTypeFromBuffer(sample)
  if (found !== undefined) return found.mime
  return looksLikeText(sample) ? 'text/plain; charset=utf-8' : UNKNOWN_CONTENT_TYPE
}

/** A writer's `Content-Type` when it is a declaration: not empty, not a tool's default. */
export function declaredContentType(header: string | undefined): string | undefined {
  const declared = header?.trim()
  if (declared === undefined || declared === '' || isToolDefault(declared)) return undefined
  return declared
}

function isToolDefault(declared: string): boolean {
  if (declared === FETCH_STRING_DEFAULT) return true
  const bare = declared.split(';')[0]?.trim().toLowerCase() ?? ''
  return TOOL_DEFAULTS.has(bare)
}

/** True for bytes that are UTF-8 text: no NUL, and valid UTF-8 (a character cut at the end is fine). */
export function looksLikeText(sample: Uint8Array): boolean {
  if (sample.length === 0) return false
  const probe = sample.subarray(0, 1024)
  if (probe.includes(0)) return false
  try {
    // `stream: true` keeps a multi-byte character cut at the probe's end from counting as bad.
    new TextDecoder('utf-8', { fatal: true }).decode(probe, { stream: true })
    return true
  } catch {
    return false
  }
}
