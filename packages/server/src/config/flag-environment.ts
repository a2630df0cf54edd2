/** The environment the server's flags fall back to; `process.env` in production. */
export type Environment = Readonly<Record<string, string | undefined>>

/** A flag's raw value and where it came from, for error messages that name the source. */
export interface RawFlag {
  raw: string
  /** `--port` for a flag, `SVCDB_PORT` for the environment. */
  source: string
}

/**
 * The environment variable behind flag `name`: `SVCDB_` and the name in capitals, dashes
 * as underscores (`--webhook-allow` → `SVCDB_WEBHOOK_ALLOW`).
 */
export function environmentName(name: string): string {
  return `SVCDB_${name.toUpperCase().replaceAll('-', '_')}`
}

/**
 * The raw value of flag `name`: the command line's when given (flags win), else its
 * environment variable's when set and not empty, else `undefined`.
 */
export function rawFlag(
  name: string,
  given: string | undefined,
  env: Environment,
): RawFlag | undefined {
  if (given !== undefined) return { raw: given, source: `--${name}` }
  const variable = environmentName(name)
  const value = env[variable]
  if (value === undefined || value === '') return undefined
  return { raw: value, source: variable }
}

const TRUE = new Set(['1', 'true', 'yes', 'on'])
const FALSE = new Set(['0', 'false', 'no', 'off'])

/**
 * A switch (`--dev`, `--unsafe-public`): on when given; else from its environment variable
 * (`1`, `true`, `yes`, `on` or `0`, `false`, `no`, `off`, any case); else `undefined`.
 * Anything else is an error naming the variable.
 */
export function switchFlag(
  name: string,
  given: boolean | undefined,
  env: Environment,
): { value: boolean | undefined } | { error: string } {
  if (given !== undefined) return { value: given }
  const variable = environmentName(name)
  const value = env[variable]
  if (value === undefined || value === '') return { value: undefined }
  const lower = value.trim().toLowerCase()
  if (TRUE.has(lower)) return { value: true }
  if (FALSE.has(lower)) return { value: false }
  return {
    error: `invalid value for ${variable}: ${JSON.stringify(value)} (expected true or false)`,
  }
}
