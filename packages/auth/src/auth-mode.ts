import { AuthError } from './errors'

/**
 * How callers are authenticated (spec "Modes"): `disabled` (everyone acts as root),
 * `self-contained` (identity in the main database) or `file` (identity in a separate
 * database at `path`, created when absent).
 */
export type AuthMode =
  { kind: 'disabled' } | { kind: 'self-contained' } | { kind: 'file'; path: string }

/**
 * Parses the `--auth` flag: `disabled`, `self-contained` or `file://<path>` (`file:///abs`
 * gives `/abs`, `file://rel/dir` gives `rel/dir`).
 *
 * @throws {AuthError} `INVALID_INPUT` for anything else.
 */
export function parseAuthMode(value: string): AuthMode {
  if (value === 'disabled' || value === 'self-contained') return { kind: value }
  const path = value.startsWith('file://') ? value.slice('file://'.length) : ''
  if (path.trim() === '' || path.includes('\0')) {
    throw new AuthError(
      'INVALID_INPUT',
      'auth mode must be disabled, self-contained or file://<path>',
    )
  }
  return { kind: 'file', path }
}

/** The flag form of a mode, the inverse of {@link parseAuthMode}. */
export function formatAuthMode(mode: AuthMode): string {
  return mode.kind === 'file' ? `file://${mode.path}` : mode.kind
}
