import { createClient as createBaseClient } from '../create-client'
import type { Client, ClientOptions } from '../create-client'
import type { FilesApi } from '../resources/files'
import { downloadFile } from './download-file'
import type { DownloadOptions, DownloadResult } from './download-file'

export { downloadFile } from './download-file'
export type { DownloadOptions, DownloadResult } from './download-file'

/** The files of a Node client: every browser call, plus downloads to the local disk. */
export interface NodeFilesApi extends FilesApi {
  /**
   * Streams a file to `localFile` through a temporary file renamed into place, so a failed
   * download leaves no half file (see {@link downloadFile}).
   *
   * @example
   * await client.files.download('/backups/db.svcdb', './db.svcdb')
   */
  download(path: string, localFile: string, options?: DownloadOptions): Promise<DownloadResult>
}

/** A client with the Node-only calls. */
export interface NodeClient extends Client {
  readonly files: NodeFilesApi
}

/**
 * Creates a client for Node.js: the same as `createClient` from `@svcdb/client`, with
 * `files.download` added. The browser entry never imports `node:` modules; this one does.
 *
 * @example
 * import { createClient } from '@svcdb/client/node'
 * const client = createClient({ baseUrl: 'http://127.0.0.1:6830', apiKey: process.env.SVCDB_API_KEY })
 * await client.files.download('/reports/q3.pdf', './q3.pdf')
 */
export function createClient(options: ClientOptions): NodeClient {
  const client = createBaseClient(options)
  const files: NodeFilesApi = {
    ...client.files,
    download: (path, localFile, o) => downloadFile(client.files, path, localFile, o),
  }
  return { ...client, files }
}
