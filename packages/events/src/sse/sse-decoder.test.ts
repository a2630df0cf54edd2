import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { encodeSseMessage } from './encode-sse'
import { createSseDecoder } from './sse-decoder'

const decodeAll = (text: string) => {
  const decoder = createSseDecoder()
  return decoder.push(text)
}

describe('createSseDecoder', () => {
  it('decodes id, event and multi-line data', () => {
    expect(decodeAll('id: 7\nevent: add\ndata: a\ndata: b\n\n')).toEqual([
      { id: '7', event: 'add', data: 'a\nb' },
    ])
  })

  it('follows the standard examples', () => {
    // Comment, then a message event with one data line.
    expect(decodeAll(': test stream\n\ndata: first event\nid: 1\n\n')).toEqual([
      { event: 'message', data: 'first event', id: '1' },
    ])
    // An empty id resets the last event id; ids persist across events otherwise.
    expect(decodeAll('id: 1\ndata: a\n\ndata: b\n\nid\ndata: c\n\n').map((e) => e.id)).toEqual([
      '1',
      '1',
      '',
    ])
    // `data` with no colon and `data:` both give an empty line; one space after the colon goes.
    expect(decodeAll('data\n\ndata\ndata\n\ndata:test\n\ndata:  two\n\n')).toEqual([
      { event: 'message', data: '', id: '' },
      { event: 'message', data: '\n', id: '' },
      { event: 'message', data: 'test', id: '' },
      { event: 'message', data: ' two', id: '' },
    ])
  })

  it('accepts CR, LF and CRLF line ends, also split across chunks', () => {
    const decoder = createSseDecoder()
    expect(decoder.push('data: a\r')).toEqual([])
    expect(decoder.push('\ndata: b\r\r')).toEqual([{ event: 'message', data: 'a\nb', id: '' }])
    expect(decoder.push('\ndata: c\r\n\r\n')).toEqual([{ event: 'message', data: 'c', id: '' }])
  })

  it('dispatches nothing for frames without data, ignores unknown fields', () => {
    expect(decodeAll('event: x\n\nfoo: bar\n\n:comment only\n\n')).toEqual([])
  })

  it('ignores ids containing NUL and non-numeric retry values', () => {
    const retries: number[] = []
    const decoder = createSseDecoder({ onRetry: (ms) => retries.push(ms) })
    const events = decoder.push('id: ok\ndata: 1\n\nid: a\0b\nretry: 10x\nretry: 2500\ndata: 2\n\n')
    expect(events.map((e) => e.id)).toEqual(['ok', 'ok'])
    expect(retries).toEqual([2500])
    expect(decoder.retry).toBe(2500)
    expect(decoder.lastEventId).toBe('ok')
  })

  it('reports comments such as keepalive pings', () => {
    const comments: string[] = []
    createSseDecoder({ onComment: (text) => comments.push(text) }).push(': ping\n\n:x\n')
    expect(comments).toEqual(['ping', 'x'])
  })

  it('strips one leading BOM and decodes UTF-8 split inside a character', () => {
    const bytes = new TextEncoder().encode('\uFEFFdata: héllo €\n\n')
    const decoder = createSseDecoder()
    const events = [...bytes].flatMap((byte) => decoder.push(Uint8Array.of(byte)))
    expect(events).toEqual([{ event: 'message', data: 'héllo €', id: '' }])
  })

  it('discards an unfinished event at the end and can read a new stream', () => {
    const decoder = createSseDecoder()
    expect(decoder.push('id: 1\ndata: done\n\nid: 2\ndata: half')).toHaveLength(1)
    decoder.end()
    expect(decoder.lastEventId).toBe('1')
    expect(decoder.push('\n\ndata: next\n\n')).toEqual([
      { event: 'message', data: 'next', id: '1' },
    ])
  })

  it('decodes what the encoder writes, however the bytes are cut (property)', () => {
    const text = fc.string({ unit: 'grapheme', maxLength: 40 })
    const name = fc.stringMatching(/^[a-z_]{1,12}$/)
    const message = fc.record(
      { id: fc.stringMatching(/^[0-9a-z-]{1,20}$/), event: name, data: text },
      { requiredKeys: ['data'] },
    )
    fc.assert(
      fc.property(
        fc.array(message, { minLength: 1, maxLength: 8 }),
        fc.array(fc.nat(), { maxLength: 10 }),
        (messages, cuts) => {
          const bytes = new TextEncoder().encode(messages.map((m) => encodeSseMessage(m)).join(''))
          const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b)
          const decoder = createSseDecoder()
          const events = []
          let from = 0
          for (const point of [...points, bytes.length]) {
            events.push(...decoder.push(bytes.subarray(from, point)))
            from = point
          }
          let id = ''
          expect(events).toEqual(
            messages.map((m) => {
              if (m.id !== undefined) id = m.id
              return { event: m.event ?? 'message', data: m.data.replace(/\r\n|\r/g, '\n'), id }
            }),
          )
        },
      ),
    )
  })
})
