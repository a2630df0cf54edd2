import { EngineError } from '../errors'
import { invalidArchive } from './archive-format'

/** Limits of an {@link ArchiveInput}. */
export interface ArchiveInputOptions {
  /** Most bytes the source may yield; more → `TOO_LARGE`. */
  maxBytes?: number | undefined
  /** Aborting stops reading with `ABORTED`, even while the source is stalled. */
  signal?: AbortSignal | undefined
}

const EMPTY: Uint8Array = new Uint8Array(0)

/**
 * Reads exact byte counts from an async source of buffers of any size. A read that lies
 * within one source buffer is returned as a view (no copy); only reads spanning buffers
 * allocate, so memory is bounded by the largest read plus one source buffer.
 */
export class ArchiveInput {
  /** Bytes consumed so far: the archive offset of the next byte. */
  offset = 0
  /** Bytes received from the source. */
  private received = 0
  private buf = EMPTY
  private pos = 0
  private done = false
  private released = false
  /** A `next()` abandoned on abort; `return()` must not wait for it. */
  private stalled = false
  private readonly iterator: AsyncIterator<Uint8Array>

  constructor(
    source: AsyncIterable<Uint8Array>,
    private readonly options: ArchiveInputOptions = {},
  ) {
    this.iterator = source[Symbol.asyncIterator]()
  }

  /** Throws `ABORTED` if the signal fired. */
  checkSignal(): void {
    const signal = this.options.signal
    if (signal?.aborted)
      throw new EngineError('ABORTED', 'reading the archive was aborted', { cause: signal.reason })
  }

  /** The next byte; `what` names it in the truncation error. */
  async byte(what: string): Promise<number> {
    if (this.pos === this.buf.length && !(await this.fill())) throw this.truncated(what, 1, 0)
    this.offset++
    return this.buf[this.pos++] as number
  }

  /** Exactly `n` bytes; `what` names them in the truncation error. */
  async read(n: number, what: string): Promise<Uint8Array> {
    if (this.buf.length - this.pos >= n) {
      const out = this.buf.subarray(this.pos, this.pos + n)
      this.pos += n
      this.offset += n
      return out
    }
    const out = new Uint8Array(n)
    let filled = 0
    while (filled < n) {
      if (this.pos === this.buf.length && !(await this.fill()))
        throw this.truncated(what, n, filled)
      const take = Math.min(n - filled, this.buf.length - this.pos)
      out.set(this.buf.subarray(this.pos, this.pos + take), filled)
      this.pos += take
      filled += take
    }
    this.offset += n
    return out
  }

  /** True once every byte of the source was consumed. */
  async atEnd(): Promise<boolean> {
    return this.pos === this.buf.length && !(await this.fill())
  }

  /** Ends the source early (its iterator's `return()`); harmless after the end. */
  async release(): Promise<void> {
    if (this.released) return
    this.released = true
    this.buf = EMPTY
    if (this.done) return
    this.done = true
    const ended = this.iterator.return?.()
    // An async generator queues `return()` behind a pending `next()`: don't wait for a stalled one.
    if (this.stalled) void Promise.resolve(ended).catch(() => {})
    else await ended
  }

  /** Pulls source buffers until one has bytes; false at the end of the source. */
  private async fill(): Promise<boolean> {
    while (!this.done) {
      this.checkSignal()
      const result = await this.next()
      if (result.done === true) {
        this.done = true
        break
      }
      const value: unknown = result.value
      if (!(value instanceof Uint8Array))
        throw new TypeError('an archive source must yield Uint8Array buffers')
      this.received += value.length
      const max = this.options.maxBytes
      if (max !== undefined && this.received > max)
        throw new EngineError('TOO_LARGE', `the archive exceeds the limit of ${max} bytes`)
      // A plain view: a Buffer's `slice()` would not copy, and callers expect Uint8Array.
      this.buf = new Uint8Array(value.buffer, value.byteOffset, value.byteLength)
      this.pos = 0
      if (value.length > 0) return true
    }
    return false
  }

  private next(): Promise<IteratorResult<Uint8Array>> {
    const pending = this.iterator.next()
    const signal = this.options.signal
    if (signal === undefined) return pending
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        this.stalled = true
        pending.catch(() => {}) // its outcome no longer matters
        try {
          this.checkSignal()
        } catch (err) {
          reject(err)
        }
      }
      signal.addEventListener('abort', onAbort, { once: true })
      pending.then(
        (result) => {
          signal.removeEventListener('abort', onAbort)
          resolve(result)
        },
        (err: unknown) => {
          signal.removeEventListener('abort', onAbort)
          reject(err)
        },
      )
    })
  }

  private truncated(what: string, needed: number, got: number): EngineError {
    const at = this.offset
    return invalidArchive(
      `truncated: ${what} needs ${needed} bytes at byte ${at}, but the input ends at byte ${at + got}`,
    )
  }
}
