// @vitest-environment happy-dom
import type { TaskView } from '@svcdb/contract'
import { fireEvent, within } from '@testing-library/dom'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { formatTime } from '../../src/format/format-time'
import TaskTable from '../../src/system/task-table.svelte'
import { cleanup, render } from './render'

afterEach(cleanup)

const CREATED = Date.UTC(2026, 10, 26, 9, 30)
const running: TaskView = {
  id: 'task-1',
  task_type: 'reindex',
  status: 'running',
  args: {},
  progress: 0.424,
  eta_ms: 65_000,
  created_at: CREATED,
}
const failed: TaskView = {
  id: 'task-2',
  task_type: 'gc',
  status: 'failed',
  args: {},
  progress: 0.5,
  created_at: CREATED,
  error: 'disk full',
}

describe('task-table.svelte', () => {
  it('shows one row per task: type, state, progress, ETA and creation time', () => {
    const view = render(TaskTable, { tasks: [running, failed], onCancel: vi.fn() })
    const rows = within(view.getByRole('table', { name: 'Tasks' }))
      .getAllByRole('row')
      .slice(1)
    const cells = rows.map((row) =>
      within(row)
        .getAllByRole('cell')
        .slice(0, 6)
        .map((cell) => cell.textContent.replace(/\s+/g, ' ').trim()),
    )
    expect(cells).toEqual([
      ['task-1', 'reindex', 'running', '42 %', '1 min 5 s', formatTime(CREATED)],
      ['task-2', 'gc', 'failed: disk full', '50 %', '', formatTime(CREATED)],
    ])
    const progress = view.getByRole<HTMLProgressElement>('progressbar', {
      name: 'Progress of task-1',
    })
    expect(progress.value).toBe(42)
  })

  it('offers Cancel only for a task that has not ended, and hands it over', async () => {
    const onCancel = vi.fn()
    const view = render(TaskTable, { tasks: [running, failed], onCancel })
    expect(view.queryByRole('button', { name: 'Cancel task-2' })).toBeNull()
    await fireEvent.click(view.getByRole('button', { name: 'Cancel task-1' }))
    expect(onCancel).toHaveBeenCalledExactlyOnceWith(running)
  })

  it('says there are no tasks instead of an empty table', () => {
    const view = render(TaskTable, { tasks: [], onCancel: vi.fn() })
    expect(view.queryByRole('table')).toBeNull()
    expect(view.getByText('No tasks')).toBeTruthy()
  })
})
