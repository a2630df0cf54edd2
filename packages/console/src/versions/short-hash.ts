/** How many hex digits of a version hash the screens show: enough to tell versions apart. */
export const SHORT_HASH_LENGTH = 12

/** The first {@link SHORT_HASH_LENGTH} digits of a hex version hash (`HEAD` and names stay whole). */
export function shortHash(hash: string): string {
  return /^[0-9a-f]{13,}$/i.test(hash) ? hash.slice(0, SHORT_HASH_LENGTH) : hash
}
