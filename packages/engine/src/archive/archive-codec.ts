/**
 * The `.svcdb` archive format (docs/archive-format.md): a streaming encoder and a strict,
 * streaming decoder. Format only: choosing what goes into an archive and importing one are
 * the database's business.
 */
export {
  ARCHIVE_FORMAT_VERSION,
  ARCHIVE_HEADER_BYTES,
  ARCHIVE_MAGIC,
  MAX_FRAME_BYTES,
} from './archive-format'
export type { ArchiveFrame, ArchiveHeader, ArchiveKind, ArchiveSummary } from './archive-format'
export { readArchive } from './archive-reader'
export type { ArchiveReader, ReadArchiveOptions } from './archive-reader'
export { createArchiveWriter } from './archive-writer'
export type { ArchiveWriter } from './archive-writer'
