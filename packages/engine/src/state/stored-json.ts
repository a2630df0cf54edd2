const encoder = new TextEncoder()
const decoder = new TextDecoder()

/** A JSON record as stored in the metadata store. */
export function jsonValue(value: unknown): Uint8Array {
  return encoder.encode(JSON.stringify(value))
}

/** A stored JSON record, or `undefined` when absent. */
export function parseJson<T>(bytes: Uint8Array | undefined): T | undefined {
  return bytes === undefined ? undefined : (JSON.parse(decoder.decode(bytes)) as T)
}
