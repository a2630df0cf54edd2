// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest'
import BreadcrumbNav from '../../src/files/breadcrumb-nav.svelte'
import { cleanup, render } from './render'

afterEach(cleanup)

describe('breadcrumb-nav.svelte', () => {
  it('links every directory from the root down, the last one marked as the current page', () => {
    const view = render(BreadcrumbNav, { path: '/docs/notes 2026' })
    const nav = view.getByRole('navigation', { name: 'Breadcrumbs' })
    const links = [...nav.querySelectorAll('a')]
    expect(links.map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['/', '#/files'],
      ['docs', '#/files/docs'],
      ['notes 2026', '#/files/docs/notes%202026'],
    ])
    expect(view.getByRole('link', { current: 'page' })).toBe(links[2])
    expect(view.getAllByRole('link', { current: false })).toEqual(links.slice(0, 2))
  })

  it('shows the root alone, as the current page, at /', () => {
    const view = render(BreadcrumbNav, { path: '/' })
    const link = view.getByRole('link', { current: 'page' })
    expect(link.textContent).toBe('/')
    expect(view.getAllByRole('link')).toEqual([link])
  })
})
