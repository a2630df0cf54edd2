import { shortHash } from './short-hash'
import type { VersionChoice } from './version-choices'

/** The API's version hash: 64 hex digits (`GET /versions/changes` takes either case). */
const VERSION_HASH = /^[0-9a-f]{64}$/i

/** A hash typed or pasted by the user, lower-cased, or why it is not one. */
export function parseVersionHash(text: string): { hash: string } | { problem: string } {
  const trimmed = text.trim()
  if (trimmed === '') return { problem: 'Enter a version hash.' }
  if (!VERSION_HASH.test(trimmed)) {
    return { problem: 'A version hash is 64 hexadecimal digits (0–9, a–f).' }
  }
  return { hash: trimmed.toLowerCase() }
}

/** `choices` with `hash` offered too, after them, unless it is already among them. */
export function withVersionHash(choices: readonly VersionChoice[], hash: string): VersionChoice[] {
  if (choices.some((choice) => choice.value === hash)) return [...choices]
  return [...choices, { value: hash, label: `version ${shortHash(hash)}` }]
}
