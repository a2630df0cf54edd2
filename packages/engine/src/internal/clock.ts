/** A source of the current time in Unix milliseconds; injectable for tests. */
export interface Clock {
  now(): number
}
