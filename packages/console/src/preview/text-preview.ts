/** A text file's preview: its text, maybe cut, and whether it was. */
export interface TextPreview {
  text: string
  truncated: boolean
}

/**
 * The text of the first bytes of a file, `totalSize` bytes long in all. A cut may split a
 * UTF-8 sequence: the decoder is told the stream goes on, so that tail is dropped, not shown
 * as a replacement character.
 */
export function textPreview(bytes: Uint8Array, totalSize: number): TextPreview {
  const truncated = totalSize > bytes.length
  const text = new TextDecoder('utf-8').decode(bytes, { stream: truncated })
  return { text, truncated }
}

/** `text` as JSON pretty-printed with two spaces, or `undefined` when it is not JSON. */
export function prettyJson(text: string): string | undefined {
  try {
    return JSON.stringify(JSON.parse(text), null, 2)
  } catch {
    return undefined
  }
}
