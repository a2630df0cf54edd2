import { describe, expect, it } from 'vitest'
import { createLogger, resolveLogFormat } from './logger'

function capture(
  level: 'debug' | 'info' | 'warn' | 'error' | 'silent',
  format?: 'json' | 'pretty',
) {
  const lines: string[] = []
  const logger = createLogger({
    level,
    ...(format === undefined ? {} : { format }),
    write: (line) => lines.push(line),
  })
  return { logger, lines }
}

describe('createLogger', () => {
  it('writes one JSON object a line with level, ISO time, message and fields', () => {
    const { logger, lines } = capture('info')
    logger.info('request', { requestId: 'r1', status: 200 })
    expect(lines).toHaveLength(1)
    expect(lines[0]).not.toContain('\n')
    const line = JSON.parse(lines[0] as string) as Record<string, unknown>
    expect(line).toMatchObject({ level: 'info', msg: 'request', requestId: 'r1', status: 200 })
    expect(new Date(line.time as string).toISOString()).toBe(line.time)
  })

  it('logs an error with its type, message and stack', () => {
    const { logger, lines } = capture('info')
    logger.error('GET /files/a failed', new RangeError('boom'), { requestId: 'r2' })
    const line = JSON.parse(lines[0] as string) as {
      level: string
      requestId: string
      err: { type: string; message: string; stack: string }
    }
    expect(line.level).toBe('error')
    expect(line.requestId).toBe('r2')
    expect(line.err).toMatchObject({ type: 'RangeError', message: 'boom' })
    expect(line.err.stack).toContain('logger.test.ts')
  })

  it('drops lines under its level and says which levels it writes', () => {
    const { logger, lines } = capture('warn')
    logger.debug('d')
    logger.info('i')
    logger.warn('w')
    expect(lines.map((l) => (JSON.parse(l) as { msg: string }).msg)).toEqual(['w'])
    expect(logger.isLevelEnabled?.('info')).toBe(false)
    expect(logger.isLevelEnabled?.('error')).toBe(true)
    const silent = capture('silent')
    silent.logger.error('e', new Error('x'))
    expect(silent.lines).toEqual([])
  })

  it('writes readable single lines in the pretty format', () => {
    const { logger, lines } = capture('debug', 'pretty')
    logger.info('request', { requestId: 'r3', status: 404 })
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/INFO.*request/)
    expect(lines[0]).toContain('"requestId":"r3"')
    expect(lines[0]).not.toContain('\n')
    expect(() => JSON.parse(lines[0] as string)).toThrow()
  })

  it('resolves auto to pretty on a terminal and JSON elsewhere', () => {
    expect(resolveLogFormat('auto', true)).toBe('pretty')
    expect(resolveLogFormat('auto', false)).toBe('json')
    expect(resolveLogFormat('json', true)).toBe('json')
    expect(resolveLogFormat('pretty', false)).toBe('pretty')
  })
})
