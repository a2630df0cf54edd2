import { createDestinationAllowList } from '@svcdb/events'
import { LOG_FORMATS, LOG_LEVELS } from '../logger'
import type { LogFormat, LogLevel } from '../logger'
import type { AuthMode } from './server-config'

/** A flag value parsed, or what was expected instead. */
export type FlagValue<T> = { value: T } | { expected: string }

const ok = <T>(value: T): FlagValue<T> => ({ value })
const expected = (what: string): FlagValue<never> => ({ expected: what })

/** A TCP port, 0 (any free port) to 65535. */
export function parsePort(raw: string): FlagValue<number> {
  return /^\d{1,5}$/.test(raw) && Number(raw) <= 65535
    ? ok(Number(raw))
    : expected('an integer from 0 to 65535')
}

/** `disabled`, `self-contained` or `file://<path>`. */
export function parseAuthMode(raw: string): FlagValue<AuthMode> {
  if (raw === 'disabled' || raw === 'self-contained') return ok({ kind: raw })
  if (raw.startsWith('file://') && raw.length > 'file://'.length) {
    return ok({ kind: 'file', path: raw.slice('file://'.length) })
  }
  return expected('disabled, self-contained or file://<path>')
}

/** A non-negative integer node id. */
export function parseNodeId(raw: string): FlagValue<number> {
  return /^\d{1,9}$/.test(raw) ? ok(Number(raw)) : expected('a non-negative integer')
}

const durationUnits: Record<string, number> = { ms: 1, s: 1000, m: 60_000 }

/** A positive duration: `15` (seconds), `15s`, `500ms` or `1m`; returned in milliseconds. */
export function parseDuration(raw: string): FlagValue<number> {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(raw)
  const ms = match ? Number(match[1]) * (durationUnits[match[2] ?? 's'] ?? 1000) : 0
  return ms >= 1 && Number.isFinite(ms)
    ? ok(Math.round(ms))
    : expected('a positive duration such as 15, 15s, 500ms or 1m')
}

/** One of the log levels. */
export function parseLogLevel(raw: string): FlagValue<LogLevel> {
  const level = LOG_LEVELS.find((l) => l === raw)
  return level === undefined ? expected(LOG_LEVELS.join(', ')) : ok(level)
}

/** `json`, `pretty` or `auto`. */
export function parseLogFormat(raw: string): FlagValue<LogFormat | 'auto'> {
  const format = [...LOG_FORMATS, 'auto' as const].find((f) => f === raw)
  return format === undefined ? expected('json, pretty, auto') : ok(format)
}

/** A comma-separated list of origins (`https://app.example`) or `*`. */
export function parseOrigins(raw: string): FlagValue<string[]> {
  const origins = raw
    .split(',')
    .map((o) => o.trim())
    .filter((o) => o !== '')
  const valid =
    origins.length > 0 && origins.every((o) => o === '*' || /^https?:\/\/[^/\s]+$/.test(o))
  return valid
    ? ok(origins)
    : expected('a comma-separated list of origins such as https://app.example, or *')
}

/** Webhook destinations: the entries of `createDestinationAllowList` (`https://host[:port]`, `https://*.domain`, `*`). */
export function parseAllowList(raw: string): FlagValue<string[]> {
  const entries = raw
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '')
  try {
    createDestinationAllowList(entries)
  } catch {
    return expected(
      'comma-separated destinations such as https://hooks.example, https://*.example or *',
    )
  }
  return entries.length > 0 ? ok(entries) : expected('at least one destination')
}

/** A host name or IP address to listen on; brackets around an IPv6 address are dropped. */
export function parseHost(raw: string): FlagValue<string> {
  const host = raw.startsWith('[') && raw.endsWith(']') ? raw.slice(1, -1) : raw
  return /^[\w.:-]+$/.test(host) ? ok(host) : expected('a host name or IP address')
}

/** A non-empty path. */
export function parsePath(raw: string): FlagValue<string> {
  return raw.trim() === '' ? expected('a non-empty path') : ok(raw)
}

/** `--meta`: a PostgreSQL connection URL. */
export function parseMetaUrl(raw: string): FlagValue<string> {
  const what = 'a PostgreSQL URL such as postgres://USER@HOST:PORT/DATABASE'
  if (!/^postgres(ql)?:\/\//.test(raw)) return expected(what)
  try {
    const url = new URL(raw)
    return url.hostname === '' ? expected(what) : ok(raw)
  } catch {
    return expected(what)
  }
}

/** `--chunks`: an S3 bucket URL (checked in full by `@svcdb/s3` when the server opens it). */
export function parseChunksUrl(raw: string): FlagValue<string> {
  return /^s3:\/\/[^/?#]+/.test(raw)
    ? ok(raw)
    : expected('an S3 URL such as s3://BUCKET?endpoint=URL&region=R')
}

/** True for addresses only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)
}

const retentionUnits: Record<string, number> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
}

/**
 * A retention period: `30d`, `12h`, `90m`, `45s`, `500ms`, or a bare integer of
 * milliseconds; `0` keeps nothing beyond what refs hold. Returned in milliseconds.
 */
export function parseRetention(raw: string): FlagValue<number> {
  const match = /^(\d{1,15})(ms|s|m|h|d)?$/.exec(raw)
  const ms = match ? Number(match[1]) * (retentionUnits[match[2] ?? 'ms'] ?? 1) : Number.NaN
  return Number.isSafeInteger(ms)
    ? ok(ms)
    : expected('a period such as 30d, 12h, 90m, 45s, 500ms, or milliseconds')
}
