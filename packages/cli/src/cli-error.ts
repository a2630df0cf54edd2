import { isClientError } from '@svcdb/client'
import { EXIT_CODES } from './exit-codes'
import type { ExitCode } from './exit-codes'

/** The code a failure of the CLI itself carries under `--json`, by exit code. */
const CODE_OF_EXIT: Record<ExitCode, string> = {
  0: 'OK',
  1: 'FAILED',
  2: 'USAGE',
  3: 'NOT_FOUND',
  4: 'UNAUTHORIZED',
  5: 'CONFLICT',
}

/** A failure the CLI reports as one line and an exit code. */
export class CliError extends Error {
  override readonly name = 'CliError'
  /** A string code for `--json` output (`USAGE`, `NOT_FOUND`…); by default the exit code's. */
  readonly code: string
  constructor(
    message: string,
    readonly exitCode: ExitCode = EXIT_CODES.FAILURE,
    code?: string,
  ) {
    super(message)
    this.code = code ?? CODE_OF_EXIT[exitCode]
  }
}

/** A wrong command line: exit code 2. */
export function usageError(message: string): CliError {
  return new CliError(message, EXIT_CODES.USAGE)
}

/** A failure as the CLI reports it: its exit code, a string code and a one-line message. */
export interface Failure {
  exitCode: ExitCode
  code: string
  message: string
}

/** The exit code of each wire (or client) error code the README's table names. */
function exitCodeOf(code: string): ExitCode {
  switch (code) {
    case 'NOT_FOUND':
      return EXIT_CODES.NOT_FOUND
    case 'UNAUTHORIZED':
    case 'FORBIDDEN':
      return EXIT_CODES.UNAUTHORIZED
    case 'CONFLICT':
    case 'PRECONDITION_FAILED':
    case 'BASE_MISMATCH':
      return EXIT_CODES.CONFLICT
    // The server refused a value the command line gave: a bad value, like a bad flag.
    case 'VALIDATION_FAILED':
    case 'BAD_REQUEST':
      return EXIT_CODES.USAGE
    default:
      return EXIT_CODES.FAILURE
  }
}

/** The exit code, code and message for any error a command threw. */
export function describeFailure(err: unknown): Failure {
  if (err instanceof CliError)
    return { exitCode: err.exitCode, code: err.code, message: err.message }
  if (isClientError(err)) {
    const details = err.details?.map((d) => `\n  ${d.path}: ${d.message}`).join('') ?? ''
    return {
      exitCode: exitCodeOf(err.code),
      code: err.code,
      message: `${err.code}: ${err.message}${details}`,
    }
  }
  const e = err as { code?: unknown; name?: unknown; path?: unknown; syscall?: unknown }
  if (e?.name === 'EngineError' && typeof e.code === 'string')
    return {
      exitCode: exitCodeOf(e.code),
      code: e.code,
      message: `${e.code}: ${(err as Error).message}`,
    }
  // A local file or directory that is not there (`put missing.txt`, `get x no/such/dir/x`).
  if (e?.code === 'ENOENT' && typeof e.syscall === 'string')
    return {
      exitCode: EXIT_CODES.NOT_FOUND,
      code: 'NOT_FOUND',
      message: `${typeof e.path === 'string' ? e.path : 'a local path'}: no such file or directory`,
    }
  return {
    exitCode: EXIT_CODES.FAILURE,
    code: 'FAILED',
    message: (err as Error)?.message ?? String(err),
  }
}
