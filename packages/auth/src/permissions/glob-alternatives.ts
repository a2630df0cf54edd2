/**
 * Most patterns the brace sets of one key's rules may expand to, all rules together (a
 * group's `default_allow` and `default_deny` are held to it each). Every alternative is a
 * compiled pattern kept in memory, and `{1..20}{1..20}{1..20}` alone is 8,000 of them.
 */
export const MAX_GLOB_ALTERNATIVES = 64

const NUMERIC_SEQUENCE = /^(-?\d+)\.\.(-?\d+)(?:\.\.(-?\d+))?$/
const ALPHA_SEQUENCE = /^([a-zA-Z])\.\.([a-zA-Z])(?:\.\.(-?\d+))?$/

/**
 * How many patterns the brace sets of `pattern` expand to (1 without any), counted without
 * expanding them: a comma set is the sum of its members, a sequence (`{1..20}`, `{a..z..2}`)
 * its length, sets side by side multiply. Counting stops once it passes `limit`, returning
 * `limit + 1`, so any pattern costs time linear in its length.
 *
 * @example
 * countGlobAlternatives('/{a,b}/{1..3}')          // 6
 * countGlobAlternatives('/{1..20}{1..20}{1..20}') // 65 (more than 64)
 */
export function countGlobAlternatives(pattern: string, limit = MAX_GLOB_ALTERNATIVES): number {
  const closing = matchBraces(pattern)
  const cap = limit + 1
  // The product of the sets in `[start, end)`, with the members of comma sets summed.
  const countRange = (start: number, end: number): number => {
    let product = 1
    for (let i = start; i < end && product < cap; i++) {
      const ch = pattern[i]
      if (ch === '\\') {
        i++
        continue
      }
      const close = ch === '{' ? closing[i] : undefined
      if (close === undefined || close >= end) continue
      product = Math.min(cap, product * countSet(i + 1, close))
      i = close
    }
    return product
  }
  // One set whose body is `[start, end)`.
  const countSet = (start: number, end: number): number => {
    const commas = topLevelCommas(pattern, closing, start, end)
    if (commas.length > 0) {
      let sum = 0
      let from = start
      for (const comma of [...commas, end]) {
        sum += countRange(from, comma)
        if (sum >= cap) return cap
        from = comma + 1
      }
      return sum
    }
    // Sequence bodies are short; slicing long bodies at every nesting level would not be.
    const length = end - start > 64 ? undefined : sequenceLength(pattern.slice(start, end))
    // A set that is neither (`{a}`) stays literal, but sets inside it still expand.
    return length ?? countRange(start, end)
  }
  return countRange(0, pattern.length)
}

/** For each `{` with a matching `}` (escapes honoured), the index of that `}`. */
function matchBraces(pattern: string): Array<number | undefined> {
  const closing: Array<number | undefined> = []
  const open: number[] = []
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]
    if (ch === '\\') i++
    else if (ch === '{') open.push(i)
    else if (ch === '}' && open.length > 0) closing[open.pop() as number] = i
  }
  return closing
}

/** The unescaped commas of `[start, end)` outside nested sets. */
function topLevelCommas(
  pattern: string,
  closing: ReadonlyArray<number | undefined>,
  start: number,
  end: number,
): number[] {
  const commas: number[] = []
  for (let i = start; i < end; i++) {
    const ch = pattern[i]
    if (ch === '\\') i++
    else if (ch === ',') commas.push(i)
    else if (ch === '{') i = closing[i] ?? i
  }
  return commas
}

/** The number of values of a sequence body (`1..20`, `a..z..2`), or undefined for others. */
function sequenceLength(body: string): number | undefined {
  const numeric = NUMERIC_SEQUENCE.exec(body)
  const alpha = numeric === null ? ALPHA_SEQUENCE.exec(body) : null
  const found = numeric ?? alpha
  if (found === null) return undefined
  const value = (s: string) => (numeric === null ? s.charCodeAt(0) : Number(s))
  const from = value(found[1] as string)
  const to = value(found[2] as string)
  const step = Math.max(1, Math.abs(Number(found[3] ?? 1)))
  const length = Math.floor(Math.abs(to - from) / step) + 1
  return Number.isFinite(length) ? length : Number.MAX_SAFE_INTEGER
}

/**
 * The brace alternatives of several globs together (one key's rules): the sum of
 * {@link countGlobAlternatives} over the globs that have any, a glob without braces adding
 * nothing. Stops once past `limit`, returning `limit + 1`.
 */
export function countRuleAlternatives(
  globs: Iterable<string>,
  limit = MAX_GLOB_ALTERNATIVES,
): number {
  let total = 0
  for (const glob of globs) {
    const count = countGlobAlternatives(glob, limit)
    if (count > 1) total += count
    if (total > limit) return limit + 1
  }
  return total
}
