/**
 * A time in Unix milliseconds as `2026-03-05 14:07` in `timeZone` (the browser's own by
 * default): sortable, short, and the same in every locale.
 */
export function formatTime(ms: number, timeZone?: string): string {
  const options: Intl.DateTimeFormatOptions = {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }
  if (timeZone !== undefined) options.timeZone = timeZone
  const parts = new Intl.DateTimeFormat('en-CA', options).formatToParts(new Date(ms))
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    parts.find((p) => p.type === type)?.value ?? ''
  return `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')}`
}
