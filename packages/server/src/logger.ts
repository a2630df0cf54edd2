import { pino } from 'pino'
import { prettyFactory } from 'pino-pretty'

/** Log levels, from chattiest to quietest. */
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const

/** A log level; `silent` logs nothing. */
export type LogLevel = (typeof LOG_LEVELS)[number]

/** How log lines look: one JSON object a line, or coloured text for a person at a terminal. */
export const LOG_FORMATS = ['json', 'pretty'] as const

/** A log format of {@link LOG_FORMATS}. */
export type LogFormat = (typeof LOG_FORMATS)[number]

/** The format `auto` stands for: pretty for a person at a terminal, JSON for a log collector. */
export function resolveLogFormat(format: LogFormat | 'auto', terminal: boolean): LogFormat {
  if (format !== 'auto') return format
  return terminal ? 'pretty' : 'json'
}

/** Structured fields of a log line (`requestId`, `status`, …). */
export type LogFields = Readonly<Record<string, unknown>>

/** The logger the server writes to. */
export interface Logger {
  debug(message: string, fields?: LogFields): void
  info(message: string, fields?: LogFields): void
  warn(message: string, fields?: LogFields): void
  error(message: string, err?: unknown, fields?: LogFields): void
  /** True when lines of `level` are written; lets callers skip work for lines nobody sees. */
  isLevelEnabled?(level: Exclude<LogLevel, 'silent'>): boolean
}

/** Options of {@link createLogger}. */
export interface LoggerOptions {
  level: LogLevel
  /** `json` (default) or `pretty`. */
  format?: LogFormat
  /** Where lines go (without their newline); standard error when absent. */
  write?: (line: string) => void
  /** Colours in the `pretty` format (default: when writing to standard error on a terminal). */
  colorize?: boolean
}

/**
 * Creates a logger (pino) writing one line per message at or above `level`: JSON objects with
 * `level`, `time` (ISO 8601), `msg` and the fields given, or, in the `pretty` format, text for
 * a terminal. Errors are logged with their type, message and stack under `err`.
 *
 * @example
 * const logger = createLogger({ level: 'info', format: 'json' })
 * logger.info('request', { requestId: 'r1', status: 200 })
 */
export function createLogger(options: LoggerOptions): Logger {
  const write = options.write ?? ((line: string) => process.stderr.write(`${line}\n`))
  const format = options.format ?? 'json'
  const prettify =
    format === 'pretty'
      ? prettyFactory({
          colorize:
            options.colorize ?? (options.write === undefined && process.stderr.isTTY === true),
          singleLine: true,
          translateTime: 'SYS:HH:MM:ss.l',
          ignore: 'pid,hostname',
        })
      : undefined
  const destination = {
    write(chunk: string) {
      const line = prettify === undefined ? chunk : prettify(chunk)
      write(line.endsWith('\n') ? line.slice(0, -1) : line)
    },
  }
  const log = pino(
    {
      level: options.level,
      base: null,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  )
  return {
    debug: (message, fields) => log.debug(fields ?? {}, message),
    info: (message, fields) => log.info(fields ?? {}, message),
    warn: (message, fields) => log.warn(fields ?? {}, message),
    error: (message, err, fields) =>
      log.error(err === undefined ? (fields ?? {}) : { ...fields, err }, message),
    isLevelEnabled: (level) => log.isLevelEnabled(level),
  }
}
