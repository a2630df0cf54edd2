import { isClientError } from '@svcdb/client'
import { CliError } from './cli-error'
import type { OptionSpecs } from './command'
import { EXIT_CODES } from './exit-codes'

/** What {@link explainFailure} knows of the command that failed. */
export interface FailureContext {
  /** The server's URL, once the command resolved its connection. */
  url: string | undefined
  /** The command's options (to name `--label` for the wire field `label`). */
  options: OptionSpecs | undefined
  /** Wire fields whose option has another name: `{ rules: '--rule' }`. */
  wireOptions: Record<string, string> | undefined
}

/** The system error code somewhere in an error's `cause` chain (`ECONNREFUSED`). */
function systemCode(err: unknown): string | undefined {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, i = 0; e && i < 5; i++) {
    if (typeof e.code === 'string' && e.code.startsWith('E')) return e.code
    e = e.cause as typeof e
  }
  return undefined
}

// No server answers there at all (nothing listening, no such host).
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
])

const kebab = (field: string) => field.replace(/_/g, '-')

/** The option (or argument) a wire field came from, as the user typed it. */
function labelOf(path: string, context: FailureContext): string {
  const field = path.replace(/^(body|query|params)\./, '').split('.')[0] ?? path
  const named = context.wireOptions?.[field]
  if (named !== undefined) return named
  if (context.options !== undefined && kebab(field) in context.options) return `--${kebab(field)}`
  return field
}

/**
 * Rewrites a client error in the user's terms: a refused connection as `cannot reach URL: is
 * the server running?`, and a validation error by the CLI option that carried the bad value
 * (`--rule`), not the wire field (`rules`). Anything else is returned as it is.
 */
export function explainFailure(err: unknown, context: FailureContext): unknown {
  if (
    isClientError(err, 'NETWORK_ERROR') &&
    context.url !== undefined &&
    UNREACHABLE.has(systemCode(err.cause) ?? '')
  )
    return new CliError(
      `cannot reach ${context.url}: is the server running?`,
      EXIT_CODES.FAILURE,
      'NETWORK_ERROR',
    )
  if (
    isClientError(err, 'VALIDATION_FAILED') &&
    err.details !== undefined &&
    err.details.length > 0
  )
    return new CliError(
      `VALIDATION_FAILED: ${err.details.map((d) => `${labelOf(d.path, context)}: ${d.message}`).join('; ')}`,
      EXIT_CODES.USAGE,
      'VALIDATION_FAILED',
    )
  return err
}
