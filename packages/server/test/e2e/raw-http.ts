import { readFile, writeFile } from 'node:fs/promises'
import { connect } from 'node:net'
import type { Socket } from 'node:net'

/** A request whose body is streamed over a raw socket, so its framing can be anything. */
export interface FloodRequest {
  method: string
  path: string
  headers?: Record<string, string>
  /** The first bytes of the body (a JSON prefix, an archive); the rest is filler. */
  prefix?: Uint8Array
  /** Bytes of body to try to send in all. */
  bodyBytes: number
  /**
   * `chunked`: Transfer-Encoding chunked, no Content-Length. A number: that Content-Length
   * is declared, whatever is actually sent.
   */
  framing: 'chunked' | number
}

/** What came back. */
export interface RawAnswer {
  /** Undefined when the server closed the connection before a whole answer arrived. */
  status: number | undefined
  /** Lower-cased header names. */
  headers: Record<string, string>
  body: string
  /** Body bytes written before the answer came (or the socket closed). */
  sent: number
}

const PIECE = 64 * 1024

/**
 * Sends `request` to `url` over a plain TCP socket and stops sending as soon as an answer
 * arrives or the server closes the connection: the server decides how much of the body it
 * takes.
 */
export function flood(url: string, request: FloodRequest): Promise<RawAnswer> {
  const { hostname, port } = new URL(url)
  const socket = connect({ host: hostname, port: Number(port) })
  return new Promise<RawAnswer>((resolve) => {
    let received = Buffer.alloc(0)
    let sent = 0
    let settled = false
    const answer = (): RawAnswer | undefined => parseAnswer(received, sent)
    const finish = () => {
      if (settled) return
      settled = true
      socket.destroy()
      resolve(answer() ?? { status: undefined, headers: {}, body: received.toString(), sent })
    }
    socket.on('data', (data: Buffer) => {
      received = Buffer.concat([received, data])
      if (answer() !== undefined) finish()
    })
    // A reset after the answer is the server closing with the rest unread: expected.
    socket.on('error', finish)
    socket.on('close', finish)
    socket.once('connect', () => {
      void send(
        socket,
        request,
        (n) => (sent += n),
        () => settled,
      ).catch(finish)
    })
  })
}

async function send(
  socket: Socket,
  request: FloodRequest,
  count: (n: number) => void,
  stopped: () => boolean,
): Promise<void> {
  const headers = {
    host: 'localhost',
    ...request.headers,
    ...(request.framing === 'chunked'
      ? { 'transfer-encoding': 'chunked' }
      : { 'content-length': String(request.framing) }),
  }
  const head = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')
  await write(socket, Buffer.from(`${request.method} ${request.path} HTTP/1.1\r\n${head}\r\n`))
  const filler = Buffer.alloc(PIECE, 0x61) // "a"
  let left = request.bodyBytes
  let first: Uint8Array | undefined = request.prefix
  while (left > 0 && !stopped()) {
    const piece = first ?? filler.subarray(0, Math.min(PIECE, left))
    first = undefined
    const framed =
      request.framing === 'chunked'
        ? Buffer.concat([Buffer.from(`${piece.length.toString(16)}\r\n`), piece, CRLF])
        : piece
    if (!(await write(socket, framed))) return
    count(piece.length)
    left -= piece.length
  }
  if (request.framing === 'chunked' && !stopped()) await write(socket, Buffer.from('0\r\n\r\n'))
}

const CRLF = Buffer.from('\r\n')

/** Writes, waiting out backpressure; false once the socket is gone. */
function write(socket: Socket, data: Uint8Array): Promise<boolean> {
  if (socket.destroyed) return Promise.resolve(false)
  if (socket.write(data)) return Promise.resolve(true)
  return new Promise((resolve) => {
    const done = (ok: boolean) => () => {
      socket.off('drain', onDrain)
      socket.off('close', onClose)
      resolve(ok)
    }
    const onDrain = done(true)
    const onClose = done(false)
    socket.once('drain', onDrain)
    socket.once('close', onClose)
  })
}

/** The first complete answer in `data` (its body sized by Content-Length), if any. */
function parseAnswer(data: Buffer, sent: number): RawAnswer | undefined {
  const end = data.indexOf('\r\n\r\n')
  if (end < 0) return undefined
  const [statusLine = '', ...lines] = data.subarray(0, end).toString('latin1').split('\r\n')
  const headers: Record<string, string> = {}
  for (const line of lines) {
    const colon = line.indexOf(':')
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
  }
  const length = Number(headers['content-length'] ?? '0')
  const body = data.subarray(end + 4)
  if (body.length < length) return undefined
  const status = Number(statusLine.split(' ')[1])
  return { status, headers, body: body.subarray(0, length).toString(), sent }
}

/**
 * Resets the process's peak resident size (Linux `clear_refs` 5), so {@link peakRss} then
 * tells the most memory it held from now on.
 */
export async function resetPeakRss(pid: number): Promise<void> {
  await writeFile(`/proc/${pid}/clear_refs`, '5')
}

/** The process's peak resident size since the last {@link resetPeakRss}, in bytes. */
export async function peakRss(pid: number): Promise<number> {
  return statusBytes(pid, 'VmHWM')
}

/** The process's resident size now, in bytes. */
export async function currentRss(pid: number): Promise<number> {
  return statusBytes(pid, 'VmRSS')
}

async function statusBytes(pid: number, field: string): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8')
  const match = new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)
  if (match === null) throw new Error(`no ${field} in /proc/${pid}/status`)
  return Number(match[1]) * 1024
}
