// @vitest-environment happy-dom
import type { CronScheduleView } from '@svcdb/contract'
import { fireEvent, within } from '@testing-library/dom'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { formatTime } from '../../src/format/format-time'
import CronTable from '../../src/system/cron-table.svelte'
import { cleanup, render } from './render'

afterEach(cleanup)

const NEXT_RUN = Date.UTC(2026, 10, 27, 3, 0)
const nightlyGc: CronScheduleView = {
  id: 'nightly-gc',
  schedule: '0 3 * * *',
  task_type: 'gc',
  args: { dry_run: false },
  enabled: true,
  created_at: Date.UTC(2026, 0, 1),
  updated_at: Date.UTC(2026, 0, 1),
  next_run_at: NEXT_RUN,
}
const weeklyReindex: CronScheduleView = {
  id: 'weekly-reindex',
  schedule: '0 4 * * 0',
  task_type: 'reindex',
  args: { path: '/docs' },
  enabled: false,
  created_at: Date.UTC(2026, 0, 2),
  updated_at: Date.UTC(2026, 0, 3),
}

const handlers = () => ({ onEdit: vi.fn(), onDelete: vi.fn(), onToggle: vi.fn() })

describe('cron-table.svelte', () => {
  it('shows one row per schedule, with its cron, task, arguments, state and runs', () => {
    const view = render(CronTable, { schedules: [nightlyGc, weeklyReindex], ...handlers() })
    const table = view.getByRole('table', { name: 'Schedules' })
    const [header, ...rows] = within(table).getAllByRole('row')
    const cells = (row: HTMLElement | undefined) =>
      within(row!)
        .getAllByRole('cell')
        .slice(0, 7)
        .map((cell) => cell.textContent)
    expect(within(header!).getAllByRole('columnheader')).toHaveLength(8)
    expect(rows.map(cells)).toEqual([
      ['nightly-gc', '0 3 * * *', 'gc', '{"dry_run":false}', 'yes', formatTime(NEXT_RUN), '–'],
      ['weekly-reindex', '0 4 * * 0', 'reindex', '{"path":"/docs"}', 'no', '–', '–'],
    ])
  })

  it('hands the schedule of the row to Edit, Disable or Enable, and Delete', async () => {
    const on = handlers()
    const view = render(CronTable, { schedules: [nightlyGc, weeklyReindex], ...on })
    await fireEvent.click(view.getByRole('button', { name: 'Edit weekly-reindex' }))
    expect(on.onEdit).toHaveBeenCalledExactlyOnceWith(weeklyReindex)
    // The toggle says what it will do: an enabled schedule offers Disable.
    expect(view.queryByRole('button', { name: 'Enable nightly-gc' })).toBeNull()
    await fireEvent.click(view.getByRole('button', { name: 'Disable nightly-gc' }))
    expect(on.onToggle).toHaveBeenCalledExactlyOnceWith(nightlyGc)
    await fireEvent.click(view.getByRole('button', { name: 'Enable weekly-reindex' }))
    expect(on.onToggle).toHaveBeenLastCalledWith(weeklyReindex)
    await fireEvent.click(view.getByRole('button', { name: 'Delete nightly-gc' }))
    expect(on.onDelete).toHaveBeenCalledExactlyOnceWith(nightlyGc)
  })

  it('says there are no schedules instead of an empty table', () => {
    const view = render(CronTable, { schedules: [], ...handlers() })
    expect(view.queryByRole('table')).toBeNull()
    expect(view.getByText('No schedules')).toBeTruthy()
  })
})
