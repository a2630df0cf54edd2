/** A string option's value; `undefined` when it was not given (or is a flag). */
export function stringOption(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined
}
