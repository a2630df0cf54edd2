// Keys of the `idx` space: `directory tree hash ‖ config entry hash`, both of the database's
// hash length, so the key splits in its middle. The value (index roots) is read and written
// in indexes/index-store.ts.

/** The `idx` key of the indexes of directory version `dirHash` under config `configHash`. */
export function indexRecordKey(dirHash: Uint8Array, configHash: Uint8Array): Uint8Array {
  if (dirHash.length !== configHash.length)
    throw new RangeError('an index record key needs two hashes of the same length')
  const key = new Uint8Array(dirHash.length + configHash.length)
  key.set(dirHash, 0)
  key.set(configHash, dirHash.length)
  return key
}

/** The directory tree hash and config entry hash of an `idx` key (views into `key`). */
export function parseIndexRecordKey(key: Uint8Array): {
  dirHash: Uint8Array
  configHash: Uint8Array
} {
  const half = key.length / 2
  return { dirHash: key.subarray(0, half), configHash: key.subarray(half) }
}

/** The directory tree hash of an `idx` key (a view into `key`). */
export function dirHashOfRecordKey(key: Uint8Array): Uint8Array {
  return parseIndexRecordKey(key).dirHash
}
