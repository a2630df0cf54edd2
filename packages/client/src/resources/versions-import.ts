import { IMPORT_STAGING_DIR, MAX_IMPORT_BYTES, routes } from '@svcdb/contract'
import type { CallOptions } from '../http/route-types'
import type { ResponseOf, Transport } from '../http/transport'
import { dedupUpload } from '../uploads/dedup-upload'
import { prepareBody, readSource } from '../uploads/upload-source'
import type { UploadSource } from '../uploads/upload-source'

/** Options of `versions.import`. */
export type ImportOptions = CallOptions & { force?: boolean; promote?: boolean }

type ImportResponse = ResponseOf<typeof routes.versionsImport>

/**
 * Imports an archive of any size. Up to the spec's import body limit
 * ({@link MAX_IMPORT_BYTES}) it is the body of `POST /versions/import`. A larger one is staged:
 * uploaded with the dedup upload protocol to `/.svcdb/staging/` on a fork of its own (so HEAD,
 * which a patch must match, never changes), imported with `?from=&fork=` (the server deletes
 * the staged file whatever the outcome), and the fork is abandoned afterwards.
 */
export async function importArchive(
  t: Transport,
  source: UploadSource,
  o: ImportOptions = {},
): Promise<ImportResponse> {
  const flags = { force: o.force === true, promote: o.promote === true }
  const known = sizeOf(source)
  if (known !== undefined && known <= MAX_IMPORT_BYTES) return importBody(t, source, flags, o)
  if (known !== undefined) return importStaged(t, source, flags, o)
  // Unknown length (a stream): hold at most the limit to find out which way it goes.
  const iterator = readSource(source)[Symbol.asyncIterator]()
  const head: Uint8Array[] = []
  let held = 0
  for (;;) {
    const next = await iterator.next()
    if (next.done === true) return importBody(t, concat(head, held), flags, o)
    head.push(next.value)
    held += next.value.length
    if (held > MAX_IMPORT_BYTES) break
  }
  async function* rest(): AsyncGenerator<Uint8Array> {
    yield* head
    for (;;) {
      const next = await iterator.next()
      if (next.done === true) return
      yield next.value
    }
  }
  return importStaged(t, rest(), flags, o)
}

function importBody(
  t: Transport,
  source: UploadSource,
  flags: { force: boolean; promote: boolean },
  o: ImportOptions,
): Promise<ImportResponse> {
  const prepared = prepareBody(source)
  return t.json(routes.versionsImport, {
    query: flags,
    body: prepared.body,
    replayable: prepared.replayable,
    headers: { 'content-type': 'application/octet-stream' },
    signal: o.signal,
  })
}

async function importStaged(
  t: Transport,
  source: UploadSource,
  flags: { force: boolean; promote: boolean },
  o: ImportOptions,
): Promise<ImportResponse> {
  const fork = `svcdb-import-${randomHex(8)}`
  const from = `${IMPORT_STAGING_DIR}${fork}.svcdb`
  const signal = o.signal
  await t.json(routes.forksCreate, { json: { name: fork }, signal })
  try {
    await dedupUpload(t, from, source, {
      fork,
      contentType: 'application/octet-stream',
      ...(signal === undefined ? {} : { signal }),
    })
    return await t.json(routes.versionsImport, { query: { ...flags, from, fork }, signal })
  } finally {
    // Not with the caller's signal: an aborted import must still leave no fork behind.
    await t.json(routes.forksAbandon, { params: { name: fork } }).catch(() => undefined)
  }
}

/** The source's length when known without reading it. */
function sizeOf(source: UploadSource): number | undefined {
  if (typeof source === 'string' || source instanceof Uint8Array || source instanceof ArrayBuffer)
    return prepareBody(source).size
  if (typeof Blob !== 'undefined' && source instanceof Blob) return source.size
  return undefined
}

function concat(parts: Uint8Array[], size: number): Uint8Array {
  const out = new Uint8Array(size)
  let at = 0
  for (const part of parts) {
    out.set(part, at)
    at += part.length
  }
  return out
}

function randomHex(bytes: number): string {
  const values = crypto.getRandomValues(new Uint8Array(bytes))
  return Array.from(values, (b) => b.toString(16).padStart(2, '0')).join('')
}
