import { describe, expect, it } from 'vitest'
import { parseInline, parseMarkdown, safeHref } from './markdown'

describe('parseMarkdown', () => {
  it('reads headings, paragraphs, rules and fenced code', () => {
    expect(parseMarkdown('# Title #\n\nsome\ntext\n\n---\n```ts\nconst a = 1\n```')).toEqual([
      { type: 'heading', level: 1, children: [{ type: 'text', text: 'Title' }] },
      { type: 'paragraph', children: [{ type: 'text', text: 'some text' }] },
      { type: 'rule' },
      { type: 'code', lang: 'ts', text: 'const a = 1' },
    ])
  })

  it('reads lists, with indented lines going on with their item, and quotes', () => {
    expect(
      parseMarkdown('- one\n  more\n- two\n\n1. first\n2) second\n> quoted\n> # inside'),
    ).toEqual([
      {
        type: 'list',
        ordered: false,
        items: [[{ type: 'text', text: 'one more' }], [{ type: 'text', text: 'two' }]],
      },
      {
        type: 'list',
        ordered: true,
        items: [[{ type: 'text', text: 'first' }], [{ type: 'text', text: 'second' }]],
      },
      {
        type: 'quote',
        children: [
          { type: 'paragraph', children: [{ type: 'text', text: 'quoted' }] },
          { type: 'heading', level: 1, children: [{ type: 'text', text: 'inside' }] },
        ],
      },
    ])
  })

  it('keeps HTML as text and an unclosed fence as code to the end', () => {
    expect(parseMarkdown('<script>alert(1)</script>')).toEqual([
      { type: 'paragraph', children: [{ type: 'text', text: '<script>alert(1)</script>' }] },
    ])
    expect(parseMarkdown('```\n<b>x')).toEqual([{ type: 'code', lang: '', text: '<b>x' }])
  })

  it('stops nesting quotes at a bounded depth', () => {
    const blocks = parseMarkdown(`${'>'.repeat(10_000)} deep`)
    expect(JSON.stringify(blocks)).toContain('deep')
  })
})

describe('parseInline', () => {
  it('reads code spans, strong, emphasis and escapes', () => {
    expect(parseInline('a `<b>` **bold _both_** _it_ \\*no\\*')).toEqual([
      { type: 'text', text: 'a ' },
      { type: 'code', text: '<b>' },
      { type: 'text', text: ' ' },
      {
        type: 'strong',
        children: [
          { type: 'text', text: 'bold ' },
          { type: 'em', children: [{ type: 'text', text: 'both' }] },
        ],
      },
      { type: 'text', text: ' ' },
      { type: 'em', children: [{ type: 'text', text: 'it' }] },
      { type: 'text', text: ' *no*' },
    ])
    expect(parseInline('snake_case_name')).toEqual([{ type: 'text', text: 'snake_case_name' }])
  })

  it('keeps safe link addresses only, and shows images by their description', () => {
    expect(
      parseInline('[site](https://example.com "t") [x](javascript:alert(1)) ![a cat](c.png)'),
    ).toEqual([
      { type: 'link', href: 'https://example.com', children: [{ type: 'text', text: 'site' }] },
      { type: 'text', text: ' ' },
      { type: 'link', href: undefined, children: [{ type: 'text', text: 'x' }] },
      { type: 'text', text: ') a cat' },
    ])
  })
})

describe('safeHref', () => {
  it('allows http, https and mailto only', () => {
    expect(safeHref(' HTTPS://a.example/x ')).toBe('HTTPS://a.example/x')
    expect(safeHref('mailto:a@b.example')).toBe('mailto:a@b.example')
    for (const href of ['javascript:alert(1)', 'data:text/html,x', '/files/a', 'vbscript:x'])
      expect(safeHref(href)).toBeUndefined()
  })
})

describe('parseInline on hostile input', () => {
  it('reads a megabyte of unclosed openers in one pass', () => {
    const text = '[a!['.repeat(256 * 1024)
    const nodes = parseInline(text)
    expect(nodes).toEqual([{ type: 'text', text }])
  })
})
