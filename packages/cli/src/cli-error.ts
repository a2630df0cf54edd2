import { isClientError } from '@svcdb/client'
import { EXIT_CODES } from './exit-codes'
import type { ExitCode } from './exit-codes'

/** A failure the CLI reports as one line and an exit code. */
export class CliError extends Error {
  override readonly name = 'CliError'
  constructor(
    message: string,
    readonly exitCode: ExitCode = EXIT_CODES.FAILURE,
  ) {
    super(message)
  }
}

/** A wrong command line: exit code 2. */
export function usageError(message: string): CliError {
  return new CliError(message, EXIT_CODES.USAGE)
}

/** The exit code and message for any error a command threw. */
export function describeFailure(err: unknown): { exitCode: ExitCode; message: string } {
  if (err instanceof CliError) return { exitCode: err.exitCode, message: err.message }
  if (isClientError(err)) {
    const exitCode =
      err.code === 'NOT_FOUND'
        ? EXIT_CODES.NOT_FOUND
        : err.code === 'UNAUTHORIZED' || err.code === 'FORBIDDEN'
          ? EXIT_CODES.UNAUTHORIZED
          : err.code === 'CONFLICT' || err.code === 'PRECONDITION_FAILED'
            ? EXIT_CODES.CONFLICT
            : EXIT_CODES.FAILURE
    const details = err.details?.map((d) => `\n  ${d.path}: ${d.message}`).join('') ?? ''
    return { exitCode, message: `${err.code}: ${err.message}${details}` }
  }
  const engineCode = (err as { code?: unknown; name?: unknown }).code
  if ((err as { name?: unknown }).name === 'EngineError' && typeof engineCode === 'string') {
    const exitCode =
      engineCode === 'NOT_FOUND'
        ? EXIT_CODES.NOT_FOUND
        : engineCode === 'CONFLICT' || engineCode === 'BASE_MISMATCH'
          ? EXIT_CODES.CONFLICT
          : EXIT_CODES.FAILURE
    return { exitCode, message: `${engineCode}: ${(err as Error).message}` }
  }
  return { exitCode: EXIT_CODES.FAILURE, message: (err as Error)?.message ?? String(err) }
}
