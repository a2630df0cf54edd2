// The engine holds the same counter (packages/engine/src/path/glob-limits.ts): layer-0
// packages share no code. Both run the same property test against minimatch.

/** Longest listing glob accepted (`GET /files/{dir}?glob=`), in UTF-16 code units. */
export const MAX_GLOB_LENGTH = 256

/**
 * Most patterns a glob may expand to through braces: `{a,b}` counts 2, `{1..20}` 20, and
 * groups in a row multiply (`{a,b}{c,d}` counts 4). Matching costs one test per pattern, so
 * this bounds the work per path.
 */
export const MAX_GLOB_ALTERNATIVES = 64

/** A sequence body as brace expansion reads it: `1..9`, `-5..5..2`, `a..z`. */
const NUMERIC_SEQUENCE = /^-?\d+\.\.-?\d+(?:\.\.-?\d+)?$/
const ALPHA_SEQUENCE = /^[a-zA-Z]\.\.[a-zA-Z](?:\.\.-?\d+)?$/
/** Brace expansion treats a backslash before one of these as an escape. */
const ESCAPABLE = new Set(['\\', '{', '}', ',', '.'])
/** Stands for an escaped character: literal text that no sequence body contains. */
const ESCAPED = '\u0000'

type Token = '{' | '}' | ',' | { text: string }

/**
 * How many patterns brace expansion makes of `glob`, counted without expanding it (so the
 * answer is immediate whatever the glob; large counts come out as large numbers or
 * `Infinity`). Well-formed braces are counted exactly, as minimatch expands them; a glob
 * with an unmatched `{` or `}` gets an upper bound (every comma may double the count), since
 * bash's rules for those stray braces are irregular.
 *
 * @example
 * countGlobAlternatives('*.{json,txt}') // 2
 * countGlobAlternatives('{1..20}{1..20}') // 400
 */
export function countGlobAlternatives(glob: string): number {
  const tokens = tokenize(glob)
  return balanced(tokens) ? countBalanced(tokens) : upperBound(tokens)
}

function tokenize(glob: string): Token[] {
  const tokens: Token[] = []
  // Like bash, brace expansion keeps a leading `{}` literal.
  let i = glob.startsWith('{}') ? 2 : 0
  if (i === 2) tokens.push({ text: '{}' })
  for (; i < glob.length; i++) {
    const c = glob[i] as string
    if (c === '\\' && i + 1 < glob.length && ESCAPABLE.has(glob[i + 1] as string)) {
      tokens.push({ text: ESCAPED })
      i++
    } else if (c === '{' || c === '}' || c === ',') tokens.push(c)
    else tokens.push({ text: c })
  }
  return tokens
}

function balanced(tokens: readonly Token[]): boolean {
  let depth = 0
  for (const token of tokens) {
    if (token === '{') depth++
    else if (token === '}' && --depth < 0) return false
  }
  return depth === 0
}

interface Group {
  /** Sum of the counts of the members before the current one. */
  done: number
  /** Product of the counts of the groups in the current member so far. */
  current: number
  commas: number
  /** The body's text while it holds no nested group (a sequence candidate). */
  text: string | undefined
}

/** Exact count for well-formed braces; an explicit stack, so nesting depth costs no stack. */
function countBalanced(tokens: readonly Token[]): number {
  const top: Group = { done: 0, current: 1, commas: 0, text: undefined }
  const stack: Group[] = [top]
  for (const token of tokens) {
    const group = stack.at(-1) as Group
    if (token === '{') {
      group.text = undefined
      stack.push({ done: 0, current: 1, commas: 0, text: '' })
    } else if (token === ',') {
      // Top-level commas are literal; inside a group they separate members.
      if (stack.length === 1) continue
      group.done += group.current
      group.current = 1
      group.commas++
      group.text = undefined
    } else if (token === '}') {
      stack.pop()
      const parent = stack.at(-1) as Group
      parent.current *= groupCount(group)
    } else if (group.text !== undefined) {
      group.text += token.text
    }
  }
  return top.current
}

function groupCount(group: Group): number {
  if (group.commas > 0) return group.done + group.current
  if (group.text !== undefined) return sequenceLength(group.text) ?? 1
  // `{{a,b}}` expands its single member: as many as the member has.
  return group.current
}

/**
 * Every expansion picks one member per group, so the count is at most 2 to the number of
 * commas times the sizes of the sequences, however bash pairs stray braces.
 */
function upperBound(tokens: readonly Token[]): number {
  let bound = 1
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as Token
    if (token === ',') bound *= 2
    if (token !== '{') continue
    let body = ''
    let j = i + 1
    for (; j < tokens.length; j++) {
      const inner = tokens[j] as Token
      if (typeof inner === 'string') break
      body += inner.text
    }
    if (tokens[j] === '}') bound *= sequenceLength(body) ?? 1
  }
  return bound
}

/** Values of a sequence body (`1..20` → 20, `a..e..2` → 3), or `undefined` for another body. */
function sequenceLength(body: string): number | undefined {
  const numeric = NUMERIC_SEQUENCE.test(body)
  if (!numeric && !ALPHA_SEQUENCE.test(body)) return undefined
  const [from, to, step] = body.split('..') as [string, string, string | undefined]
  const value = (part: string) => (numeric ? Number.parseInt(part, 10) : part.charCodeAt(0))
  const increment = step === undefined ? 1 : Math.max(Math.abs(Number.parseInt(step, 10)), 1)
  return Math.floor(Math.abs(value(to) - value(from)) / increment) + 1
}
