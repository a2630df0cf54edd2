import type { EntryView, QueryResultView } from '@svcdb/contract'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CONSOLE_TIMEOUT_MS as TIMEOUT_MS, startConsoleHarness } from './console-harness'
import type { ConsoleHarness } from './console-harness'

const WAIT = { timeout: 15_000 }

/** Documents of /tickets: n from 0 to 24, every third one closed. */
const TICKETS = Array.from({ length: 25 }, (_, n) => ({
  name: `t${String(n).padStart(2, '0')}.json`,
  body: { n, status: n % 3 === 0 ? 'closed' : 'open', title: `ticket ${n}` },
}))

let harness: ConsoleHarness

/** The names of every answer of a query, as the API gives them page by page. */
async function apiQuery(body: Record<string, unknown>): Promise<string[]> {
  const names: string[] = []
  let after: string | undefined
  do {
    const res = await harness.api('POST', '/files/query', {
      path: '/tickets',
      ...body,
      ...(after === undefined ? {} : { after }),
    })
    const page = (await res.json()) as QueryResultView
    names.push(...page.items.map((item: EntryView) => item.name))
    after = page.next
  } while (after !== undefined)
  return names
}

/** The names in the results table of the query view, in order. */
function resultNames(page: Page): Promise<string[]> {
  return page
    .getByRole('region', { name: 'Query results' })
    .getByRole('table')
    .getByRole('rowheader')
    .allTextContents()
    .then((names) => names.map((name) => name.trim()))
}

beforeAll(async () => {
  harness = await startConsoleHarness()
  await harness.put(
    '/tickets/.svcdb/indexes.json',
    JSON.stringify({
      glob: '*.json',
      indexes: [
        { field: '/status', type: 'string' },
        { field: '/n', type: 'number' },
      ],
    }),
    'application/json',
  )
  for (const ticket of TICKETS)
    await harness.put(`/tickets/${ticket.name}`, JSON.stringify(ticket.body), 'application/json')
  await harness.put('/tickets/notes.txt', 'not a document\n')
  await harness.put('/plain/a.txt', 'no indexes here\n')
}, TIMEOUT_MS)

afterAll(() => harness?.close(), TIMEOUT_MS)

describe('the query screen of an indexed directory, in headless Chromium', () => {
  it(
    'offers Query only where there are indexes, and lists them',
    async () => {
      const { page, problems } = await harness.open({ hash: '#/files/plain' })
      await expect.poll(() => page.getByRole('rowheader', { name: 'a.txt' }).count(), WAIT).toBe(1)
      expect(await page.getByRole('link', { name: 'Query', exact: true }).count()).toBe(0)

      await page.goto(`${harness.url}/console/#/files/tickets`)
      const query = page.getByRole('link', { name: 'Query', exact: true })
      await expect.poll(() => query.count(), WAIT).toBe(1)
      await query.click()
      expect(page.url()).toMatch(/#\/files\/tickets\?query$/)
      const indexes = page.getByRole('table', { name: 'Indexes of /tickets' })
      await expect.poll(() => indexes.getByRole('row').count(), WAIT).toBe(1 + 2)
      expect(await indexes.getByRole('row').allTextContents()).toEqual([
        'FieldType',
        '/statusstring',
        '/nnumber',
      ])
      expect(await page.getByText('*.json', { exact: true }).count()).toBe(1)

      await page.getByRole('link', { name: 'Back to the listing' }).click()
      await expect
        .poll(() => page.getByRole('rowheader', { name: 't00.json' }).count(), WAIT)
        .toBe(1)
      expect(problems).toEqual([])
      await page.close()
    },
    TIMEOUT_MS,
  )

  it(
    'runs a query built in the form and shows what the API answers, then previews an answer',
    async () => {
      const { page, problems } = await harness.open({ hash: '#/files/tickets?query' })
      const first = page.getByRole('group', { name: 'Condition 1' })
      await expect.poll(() => first.count(), WAIT).toBe(1)
      await first.getByLabel('Field').selectOption('/status')
      await first.getByLabel('Operator').selectOption({ label: 'equals' })
      await first.getByLabel('Value').fill('closed')
      await page.getByRole('button', { name: 'Add condition' }).click()
      const second = page.getByRole('group', { name: 'Condition 2' })
      await second.getByLabel('Field').selectOption('/n')
      await second.getByLabel('Operator').selectOption({ label: 'at least' })
      await second.getByLabel('Value').fill('6')
      await page.getByLabel('Match').selectOption({ label: 'all conditions' })
      await page.getByLabel('Order by').selectOption('/n')
      await page.getByLabel('Direction').selectOption({ label: 'descending' })
      await page.getByRole('button', { name: 'Run query' }).click()

      const expected = await apiQuery({
        where: {
          and: [
            { field: '/status', op: 'eq', value: 'closed' },
            { field: '/n', op: 'gte', value: 6 },
          ],
        },
        order_by: { field: '/n', direction: 'desc' },
      })
      expect(expected).toEqual([
        't24.json',
        't21.json',
        't18.json',
        't15.json',
        't12.json',
        't09.json',
        't06.json',
      ])
      await expect.poll(() => resultNames(page), WAIT).toEqual(expected)
      expect(await page.getByText('Showing 7 matching files').count()).toBe(1)

      await page.getByRole('button', { name: 't21.json', exact: true }).click()
      const preview = page.getByRole('region', { name: 'Preview of t21.json' })
      await expect
        .poll(() => preview.locator('pre').textContent(), WAIT)
        .toBe(JSON.stringify(TICKETS[21]?.body, null, 2))

      // Each answer names its directory, linked to its listing.
      await page
        .getByRole('row')
        .filter({ has: page.getByRole('rowheader', { name: 't21.json' }) })
        .getByRole('link', { name: '/tickets' })
        .click()
      await expect
        .poll(() => page.getByRole('link', { name: 'Query', exact: true }).count(), WAIT)
        .toBe(1)
      expect(page.url()).toMatch(/#\/files\/tickets$/)
      expect(problems).toEqual([])
      await page.close()
    },
    TIMEOUT_MS,
  )

  it(
    'pages the answers with the API’s cursor, as many per page as asked',
    async () => {
      const { page, problems } = await harness.open({ hash: '#/files/tickets?query' })
      const first = page.getByRole('group', { name: 'Condition 1' })
      await expect.poll(() => first.count(), WAIT).toBe(1)
      await first.getByRole('button', { name: 'Remove condition 1' }).click()
      expect(await page.getByRole('group', { name: 'Condition 1' }).count()).toBe(0)
      await page.getByLabel('Per page').selectOption('20')
      await page.getByRole('button', { name: 'Run query' }).click()

      const expected = await apiQuery({})
      expect(expected).toEqual(TICKETS.map((ticket) => ticket.name)) // documents only, by path
      await expect.poll(() => resultNames(page), WAIT).toEqual(expected.slice(0, 20))
      expect(await page.getByText('Showing the first 20 matching files; more remain').count()).toBe(
        1,
      )
      await page.getByRole('button', { name: 'Load more' }).click()
      await expect.poll(() => resultNames(page), WAIT).toEqual(expected)
      expect(await page.getByText('Showing 25 matching files').count()).toBe(1)
      expect(await page.getByRole('button', { name: 'Load more' }).count()).toBe(0)
      expect(problems).toEqual([])
      await page.close()
    },
    TIMEOUT_MS,
  )

  it(
    'says what is wrong with a value before asking the server',
    async () => {
      const { page, problems } = await harness.open({ hash: '#/files/tickets?query' })
      const first = page.getByRole('group', { name: 'Condition 1' })
      await expect.poll(() => first.count(), WAIT).toBe(1)
      await first.getByLabel('Field').selectOption('/n')
      await first.getByLabel('Value').fill('ten')
      await first.getByLabel('Value').press('Enter') // the form submits by keyboard too
      await expect
        .poll(() => page.getByRole('alert').textContent(), WAIT)
        .toBe('/n takes a number.')

      await first.getByLabel('Field').selectOption('@updated_at')
      await first.getByLabel('Operator').selectOption({ label: 'greater than' })
      await first.getByLabel('Value').fill('someday')
      await page.getByRole('button', { name: 'Run query' }).click()
      await expect.poll(() => page.getByRole('alert').textContent(), WAIT).toMatch(/takes a date/)
      expect(await page.getByRole('region', { name: 'Query results' }).count()).toBe(0)
      expect(problems).toEqual([])
      await page.close()
    },
    TIMEOUT_MS,
  )
})
