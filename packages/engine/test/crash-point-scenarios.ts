import { pseudoRandomBytes } from '../src/testing/pseudo-random-bytes'

// Shared by the crash-point test and its child process.

/** Small packs (compaction has packs to rewrite) and no version log (GC reclaims at once). */
export const CRASH_DATABASE_OPTIONS = { packSizeLimit: 160 * 1024, versionLogLimit: 0 } as const

/** Bytes of a file of several pack chunks (160–288 KiB), by seed. */
export const crashFileBytes = (seed: number): Uint8Array =>
  pseudoRandomBytes(160 * 1024 + ((seed * 7919) % (128 * 1024)), seed)
