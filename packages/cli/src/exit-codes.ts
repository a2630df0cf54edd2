/**
 * Exit codes of the `svcdb` command, documented in the README. Scripts may rely on them.
 */
export const EXIT_CODES = {
  /** The command did what was asked. */
  OK: 0,
  /** The command failed; the message says why. */
  FAILURE: 1,
  /** The command line was wrong (unknown command or flag, bad value). */
  USAGE: 2,
  /** The file, version, user, task… named does not exist. */
  NOT_FOUND: 3,
  /** The credential was refused or lacks permission. */
  UNAUTHORIZED: 4,
  /** The change conflicts with the current state (already exists, precondition failed). */
  CONFLICT: 5,
} as const

/** One of {@link EXIT_CODES}. */
export type ExitCode = (typeof EXIT_CODES)[keyof typeof EXIT_CODES]
