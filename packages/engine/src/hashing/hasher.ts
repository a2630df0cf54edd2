/** Hash algorithms a database can be created with (recorded in its meta, DESIGN §3.2). */
export type HashAlgorithm = 'sha256' | 'blake3'

/**
 * Kinds of hashed input. Every object and chunk id is the hash of `<kind>:` followed by its
 * bytes, so bytes of one kind can never collide with another (DESIGN §3.2).
 */
export type HashDomain = 'chunk' | 'file' | 'dir' | 'link' | 'list'

/** An incremental hash over a stream of bytes. */
export interface HashStream {
  update(data: Uint8Array): void
  /** The 32-byte digest; the stream cannot be used afterwards. */
  digest(): Uint8Array
}

/** Hashing with one algorithm. All digests are 32 bytes. */
export interface Hasher {
  readonly algorithm: HashAlgorithm
  /** The id of a chunk or object: hash of `<domain>:` + bytes. */
  hashDomain(domain: HashDomain, bytes: Uint8Array): Uint8Array
  /** A plain hash of content (no domain prefix), e.g. a file's whole-content hash. */
  createStream(): HashStream
}
