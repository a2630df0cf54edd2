const encoder = new TextEncoder()

/**
 * Appends the primitives of the engine's binary encodings to a growing buffer: bytes,
 * unsigned LEB128 varints (up to 2^53, so millisecond timestamps fit) and length-prefixed
 * UTF-8 strings.
 */
export class ByteWriter {
  private buf: Uint8Array
  private len = 0

  constructor(initialSize = 256) {
    this.buf = new Uint8Array(initialSize)
  }

  private reserve(n: number): void {
    if (this.len + n <= this.buf.length) return
    let size = this.buf.length * 2
    while (size < this.len + n) size *= 2
    const next = new Uint8Array(size)
    next.set(this.buf.subarray(0, this.len))
    this.buf = next
  }

  byte(value: number): this {
    this.reserve(1)
    this.buf[this.len++] = value
    return this
  }

  bytes(value: Uint8Array): this {
    this.reserve(value.length)
    this.buf.set(value, this.len)
    this.len += value.length
    return this
  }

  varint(value: number): this {
    if (!Number.isSafeInteger(value) || value < 0)
      throw new RangeError(`varint out of range: ${value}`)
    this.reserve(8)
    let v = value
    while (v >= 0x80) {
      this.buf[this.len++] = (v % 0x80) | 0x80
      v = Math.floor(v / 0x80)
    }
    this.buf[this.len++] = v
    return this
  }

  string(value: string): this {
    const bytes = encoder.encode(value)
    return this.varint(bytes.length).bytes(bytes)
  }

  /** The bytes written so far (a copy trimmed to length). */
  finish(): Uint8Array {
    return this.buf.slice(0, this.len)
  }
}
