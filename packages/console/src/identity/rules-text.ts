import type { RuleView } from '@svcdb/contract'

/** Rules read from text, or why the text is not rules. */
export type ParsedRules = { rules: RuleView[] } | { error: string }

const FLAGS = /^[c-][r-][u-][d-][l-][i-][f-][y-]$/

/**
 * Reads a key's rules from text: one rule a line, an absolute path glob then its 8-character
 * flag string (`/docs/** -r--l---`); blank lines are skipped, order is kept (the first match decides).
 */
export function parseRules(text: string): ParsedRules {
  const rules: RuleView[] = []
  const lines = text.split('\n')
  for (const [index, raw] of lines.entries()) {
    const line = raw.trim()
    if (line === '') continue
    const parts = line.split(/\s+/)
    const where = `Rule line ${index + 1}`
    if (parts.length !== 2)
      return { error: `${where}: give a path glob and its flags, e.g. /docs/** -r--l---` }
    const [glob, flags] = parts as [string, string]
    if (!glob.startsWith('/')) return { error: `${where}: the path glob must start with /` }
    if (!FLAGS.test(flags)) {
      return { error: `${where}: flags must be 8 characters of crudlify, each its letter or -` }
    }
    rules.push({ [glob]: flags })
  }
  return { rules }
}

/** A key's rules as one line of text, for a table cell. */
export function formatRules(rules: readonly RuleView[]): string {
  if (rules.length === 0) return 'no restriction'
  return rules
    .map((rule) =>
      Object.entries(rule)
        .map(([glob, flags]) => `${glob} ${flags}`)
        .join(''),
    )
    .join(', ')
}
