const decoder = new TextDecoder('utf-8', { fatal: true })

/** Thrown when encoded bytes are truncated or malformed; callers turn it into their own error. */
export class DecodeError extends Error {
  override readonly name = 'DecodeError'
}

/** Reads what {@link ByteWriter} wrote, refusing truncated or malformed input. */
export class ByteReader {
  private pos = 0

  constructor(private readonly buf: Uint8Array) {}

  get done(): boolean {
    return this.pos === this.buf.length
  }

  byte(): number {
    if (this.pos >= this.buf.length) throw new DecodeError('unexpected end of data')
    return this.buf[this.pos++] as number
  }

  bytes(n: number): Uint8Array {
    if (this.pos + n > this.buf.length) throw new DecodeError('unexpected end of data')
    const out = this.buf.subarray(this.pos, this.pos + n)
    this.pos += n
    return out
  }

  varint(): number {
    let value = 0
    let scale = 1
    for (let i = 0; i < 8; i++) {
      const b = this.byte()
      value += (b & 0x7f) * scale
      if (b < 0x80) {
        if (!Number.isSafeInteger(value)) throw new DecodeError('varint out of range')
        return value
      }
      scale *= 0x80
    }
    throw new DecodeError('varint too long')
  }

  string(): string {
    const bytes = this.bytes(this.varint())
    // ASCII (most names) decodes without TextDecoder's per-call cost.
    let ascii = bytes.length <= 1024 // bounded: fromCharCode.apply takes its input on the stack
    for (let i = 0; ascii && i < bytes.length; i++) {
      if ((bytes[i] as number) >= 0x80) {
        ascii = false
        break
      }
    }
    if (ascii) return String.fromCharCode.apply(null, bytes as unknown as number[])
    try {
      return decoder.decode(bytes)
    } catch {
      throw new DecodeError('invalid UTF-8')
    }
  }

  /** Fails unless every byte was consumed. */
  end(): void {
    if (!this.done) throw new DecodeError(`${this.buf.length - this.pos} unexpected trailing bytes`)
  }
}
