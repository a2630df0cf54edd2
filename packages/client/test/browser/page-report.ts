/** Where the page leaves its report on `globalThis`, for the test to read. */
export const REPORT_KEY = 'svcdbReport'

/** What the page saw, one field per check. */
export interface PageResults {
  written: { path: string; size: number; hash: string }
  readText: string
  /** A ranged read: these need the CORS-exposed `etag` and `content-range` headers. */
  ranged: { text: string; contentRange: string | undefined; totalSize: number; hash: string }
  listed: string[]
  upload: {
    size: number
    /** Chunk bytes the client put on the wire, counted by the `fetch` it was given. */
    firstSent: number
    secondSent: number
    hashesDiffer: boolean
    /** The second version read back equals the edited bytes. */
    readBackMatches: boolean
  }
  event: { eventType: string; paths: string[] }
  missing: { isClientError: boolean; code: string; status: number }
}

/** The page's outcome: its results, or the step that failed and why. */
export type PageReport =
  { ok: true; results: PageResults } | { ok: false; step: string; error: string }
