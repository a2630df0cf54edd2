/**
 * A small Markdown reader for previews: it turns the text into a tree of blocks and inline
 * nodes that components render as DOM nodes, so no HTML in a file is ever interpreted. It
 * knows headings, paragraphs, fenced code, block quotes, lists, rules, code spans, emphasis
 * and links; raw HTML stays text, and links keep an address only when it is http(s) or mailto.
 */

/** A run of text and its marks. */
export type MarkdownInline =
  | { type: 'text'; text: string }
  | { type: 'code'; text: string }
  | { type: 'strong'; children: MarkdownInline[] }
  | { type: 'em'; children: MarkdownInline[] }
  | { type: 'link'; href: string | undefined; children: MarkdownInline[] }

/** A block of a Markdown document. */
export type MarkdownBlock =
  | { type: 'heading'; level: 1 | 2 | 3 | 4 | 5 | 6; children: MarkdownInline[] }
  | { type: 'paragraph'; children: MarkdownInline[] }
  | { type: 'code'; lang: string; text: string }
  | { type: 'quote'; children: MarkdownBlock[] }
  | { type: 'list'; ordered: boolean; items: MarkdownInline[][] }
  | { type: 'rule' }

/** Quotes nested deeper than this are read as text: a hostile file cannot blow the stack. */
const MAX_QUOTE_DEPTH = 8

const FENCE = /^\s{0,3}(`{3,}|~{3,})\s*([\w+-]*)/
const HEADING = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/
const RULE = /^\s{0,3}([-*_])(\s*\1){2,}\s*$/
const QUOTE = /^\s{0,3}>\s?/
const BULLET = /^\s{0,3}[-*+]\s+/
const NUMBER = /^\s{0,3}\d{1,9}[.)]\s+/

/** The blocks of a Markdown text. */
export function parseMarkdown(text: string, depth = 0): MarkdownBlock[] {
  const lines = text.replace(/\r\n?/g, '\n').split('\n')
  const blocks: MarkdownBlock[] = []
  let paragraph: string[] = []
  const endParagraph = () => {
    if (paragraph.length > 0)
      blocks.push({ type: 'paragraph', children: parseInline(paragraph.join(' ')) })
    paragraph = []
  }

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string
    const fence = FENCE.exec(line)
    if (fence !== null) {
      endParagraph()
      const marker = fence[1] as string
      const code: string[] = []
      while (++i < lines.length && !(lines[i] as string).trimStart().startsWith(marker))
        code.push(lines[i] as string)
      blocks.push({ type: 'code', lang: fence[2] ?? '', text: code.join('\n') })
      continue
    }
    const heading = HEADING.exec(line)
    if (heading !== null) {
      endParagraph()
      const level = (heading[1] as string).length as 1 | 2 | 3 | 4 | 5 | 6
      blocks.push({ type: 'heading', level, children: parseInline(heading[2] ?? '') })
      continue
    }
    if (RULE.test(line)) {
      endParagraph()
      blocks.push({ type: 'rule' })
      continue
    }
    if (QUOTE.test(line) && depth < MAX_QUOTE_DEPTH) {
      endParagraph()
      const quoted: string[] = []
      for (; i < lines.length && QUOTE.test(lines[i] as string); i++)
        quoted.push((lines[i] as string).replace(QUOTE, ''))
      i--
      blocks.push({ type: 'quote', children: parseMarkdown(quoted.join('\n'), depth + 1) })
      continue
    }
    const ordered = NUMBER.test(line)
    if (ordered || BULLET.test(line)) {
      endParagraph()
      const marker = ordered ? NUMBER : BULLET
      const items: string[] = []
      for (; i < lines.length; i++) {
        const current = lines[i] as string
        if (marker.test(current)) items.push(current.replace(marker, ''))
        // An indented line goes on with the item before it.
        else if (/^\s{2,}\S/.test(current) && items.length > 0)
          items[items.length - 1] += ` ${current.trim()}`
        else break
      }
      i--
      blocks.push({ type: 'list', ordered, items: items.map(parseInline) })
      continue
    }
    if (line.trim() === '') endParagraph()
    else paragraph.push(line.trim())
  }
  endParagraph()
  return blocks
}

/** The address of a link when it is safe to follow: http(s) and mailto only. */
export function safeHref(href: string): string | undefined {
  const trimmed = href.trim()
  return /^(https?:\/\/|mailto:)/i.test(trimmed) ? trimmed : undefined
}

/** The inline nodes of a run of text. */
export function parseInline(text: string): MarkdownInline[] {
  const nodes: MarkdownInline[] = []
  let plain = ''
  const push = (node: MarkdownInline) => {
    if (plain !== '') nodes.push({ type: 'text', text: plain })
    plain = ''
    nodes.push(node)
  }

  // A closer not found from one place is not found from any later one either: remembering
  // that keeps a line of a million unclosed `[` or `*` linear.
  const absent = new Set<string>()
  const find = (closer: string, from: number): number => {
    if (absent.has(closer)) return -1
    const at = text.indexOf(closer, from)
    if (at < 0) absent.add(closer)
    return at
  }

  let i = 0
  while (i < text.length) {
    const char = text[i] as string
    if (char === '\\' && i + 1 < text.length && /[!-/:-@[-`{-~]/.test(text[i + 1] as string)) {
      plain += text[i + 1]
      i += 2
      continue
    }
    if (char === '`') {
      const end = find('`', i + 1)
      if (end > i) {
        push({ type: 'code', text: text.slice(i + 1, end) })
        i = end + 1
        continue
      }
    }
    const double = text.slice(i, i + 2)
    if (double === '**' || double === '__') {
      const end = find(double, i + 2)
      if (end > i + 2) {
        push({ type: 'strong', children: parseInline(text.slice(i + 2, end)) })
        i = end + 2
        continue
      }
    }
    if (char === '*' || (char === '_' && !/\w/.test(text[i - 1] ?? ''))) {
      const end = find(char, i + 1)
      if (end > i + 1 && text[i + 1] !== ' ') {
        push({ type: 'em', children: parseInline(text.slice(i + 1, end)) })
        i = end + 1
        continue
      }
    }
    const image = char === '!' && text[i + 1] === '['
    if (char === '[' || image) {
      const open = image ? i + 1 : i
      const close = find('](', open)
      const end = close < 0 ? -1 : find(')', close + 2)
      if (close > open && end > close) {
        const label = text.slice(open + 1, close)
        const href = text.slice(close + 2, end).split(/\s+/)[0] ?? ''
        // An image is shown by its description: a preview fetches nothing a file names.
        if (image) plain += label
        else push({ type: 'link', href: safeHref(href), children: parseInline(label) })
        i = end + 1
        continue
      }
    }
    plain += char
    i++
  }
  if (plain !== '') nodes.push({ type: 'text', text: plain })
  return nodes
}
