import type { EntryView } from '@svcdb/contract'

/** A change to the listing waiting for its form or its confirmation. */
export type EntryOperation =
  | { kind: 'mkdir' }
  | { kind: 'rename'; entry: EntryView }
  | { kind: 'copy'; entry: EntryView }
  | { kind: 'delete'; entry: EntryView }
