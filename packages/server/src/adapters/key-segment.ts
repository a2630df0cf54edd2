/**
 * Encodes `value` (a record id) as an ASCII key segment whose byte order equals the
 * JavaScript string order of the values, so an ordered key-value scan lists records exactly
 * as the ports' reference implementations sort them (`a < b`). Printable ASCII from `"` to
 * `}` stays as is, so UUIDs and names remain readable; a lower code unit becomes `!` and two
 * hex digits, a higher one (and `~`) becomes `~` and four. No `/` is special: callers put
 * segments last or after fixed-width parts.
 *
 * Why not the raw id: the engine bounds a prefix scan with `\uffff`, so keys whose UTF-8
 * bytes sort above it (astral characters) would be missing from listings; UTF-8 byte order
 * also differs from UTF-16 order, and a lone surrogate does not survive UTF-8 at all.
 *
 * @example
 * encodeKeySegment('nightly-gc') // 'nightly-gc'
 * encodeKeySegment('ü') // '~00fc'
 */
export function encodeKeySegment(value: string): string {
  let out = ''
  for (let i = 0; i < value.length; i++) {
    const unit = value.charCodeAt(i)
    if (unit > 0x21 && unit < 0x7e) out += value[i]
    else if (unit <= 0x21) out += `!${unit.toString(16).padStart(2, '0')}`
    else out += `~${unit.toString(16).padStart(4, '0')}`
  }
  return out
}
