/** Bytes `value` takes in UTF-8 (lone surrogates count as U+FFFD, 3 bytes). */
export function utf8Length(value: string): number {
  let n = 0
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i)
    if (c < 0x80) n += 1
    else if (c < 0x800) n += 2
    else if (c >= 0xd800 && c < 0xdc00 && i + 1 < value.length) {
      const next = value.charCodeAt(i + 1)
      if (next >= 0xdc00 && next < 0xe000) {
        n += 4
        i++
      } else n += 3
    } else n += 3
  }
  return n
}

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

  /**
   * A length-prefixed UTF-8 string, encoded here rather than with TextEncoder: names are short
   * and many, and TextEncoder's per-call cost dominated page encoding.
   */
  string(value: string): this {
    this.varint(utf8Length(value))
    this.reserve(value.length * 3)
    const buf = this.buf
    let at = this.len
    for (let i = 0; i < value.length; i++) {
      let c = value.charCodeAt(i)
      if (c < 0x80) {
        buf[at++] = c
      } else if (c < 0x800) {
        buf[at++] = 0xc0 | (c >> 6)
        buf[at++] = 0x80 | (c & 0x3f)
      } else {
        const next = value.charCodeAt(i + 1)
        if (c >= 0xd800 && c < 0xdc00 && next >= 0xdc00 && next < 0xe000) {
          c = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00)
          i++
          buf[at++] = 0xf0 | (c >> 18)
          buf[at++] = 0x80 | ((c >> 12) & 0x3f)
        } else {
          if (c >= 0xd800 && c < 0xe000) c = 0xfffd // lone surrogate, as TextEncoder does
          buf[at++] = 0xe0 | (c >> 12)
        }
        buf[at++] = 0x80 | ((c >> 6) & 0x3f)
        buf[at++] = 0x80 | (c & 0x3f)
      }
    }
    this.len = at
    return this
  }

  /** Starts over, keeping the buffer, so one writer can encode many values. */
  reset(): this {
    this.len = 0
    return this
  }

  /** The bytes written so far (a copy trimmed to length). */
  finish(): Uint8Array {
    return this.buf.slice(0, this.len)
  }
}
