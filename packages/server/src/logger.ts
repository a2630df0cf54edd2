/** Log levels, from chattiest to quietest. */
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const

/** A log level; `silent` logs nothing. */
export type LogLevel = (typeof LOG_LEVELS)[number]

/** The logger the server writes to. */
export interface Logger {
  debug(message: string): void
  info(message: string): void
  warn(message: string): void
  error(message: string, err?: unknown): void
}

/** Options of {@link createLogger}. */
export interface LoggerOptions {
  level: LogLevel
  /** Where lines go; standard error when absent, so standard output stays for announcements. */
  write?: (line: string) => void
}

/** Creates a logger writing one timestamped line per message at or above `level`. */
export function createLogger(options: LoggerOptions): Logger {
  const threshold = LOG_LEVELS.indexOf(options.level)
  const write = options.write ?? ((line: string) => process.stderr.write(`${line}\n`))
  const emit = (level: LogLevel, message: string) => {
    if (LOG_LEVELS.indexOf(level) >= threshold)
      write(`${new Date().toISOString()} ${level} ${message}`)
  }
  return {
    debug: (message) => emit('debug', message),
    info: (message) => emit('info', message),
    warn: (message) => emit('warn', message),
    error: (message, err) => {
      const detail = err instanceof Error ? `\n${err.stack ?? err.message}` : ''
      emit('error', `${message}${detail}`)
    },
  }
}
