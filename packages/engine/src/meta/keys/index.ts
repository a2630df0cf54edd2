/**
 * The key layout of the metadata store (DESIGN §3.1), in one place so that every `MetaStore`
 * driver and every engine module agree on it. Spaces (sublevels) are listed in
 * `../meta-store.ts`; keys within them are:
 *
 * | space      | key                                              | built by                         |
 * |------------|--------------------------------------------------|----------------------------------|
 * | `obj`      | hash of a tree object (raw bytes)                | the hash itself                  |
 * | `chunkidx` | chunk hash (raw bytes) → pack location           | the hash itself                  |
 * | `chunk`    | chunk hash (raw bytes) → chunk record            | the hash itself                  |
 * | `idx`      | directory tree hash ‖ config entry hash          | {@link indexRecordKey}           |
 * | `ref`      | `HEAD`, `snap/<name>`, `fork/<name>`, `import/<hash>`, `peer/<name>` | {@link HEAD}, {@link refKey} |
 * | `refinfo`  | the same ref keys as `ref`                       | {@link refKey}                   |
 * | `meta`     | `format`, `counters`, `commit-token`, `pack.<id, 6+ digits>`, `changes.<sequence, 16 digits>` | {@link FORMAT_KEY}, {@link COUNTERS_KEY}, {@link COMMIT_TOKEN_KEY}, {@link packLengthKey}, {@link changeRecordKey} |
 * | `log`      | version log sequence, 16 digits                  | {@link sequenceKey}              |
 * | `headlog`  | the same sequence as the move's `log` record     | {@link sequenceKey}              |
 * | `sys`      | `<namespace>/<key>`                              | {@link systemKey}                |
 *
 * Every encoder has its parser beside it; `keys.test.ts` checks that they round-trip and
 * that byte order is the order readers rely on.
 */
export { indexRecordKey, parseIndexRecordKey, dirHashOfRecordKey } from './index-keys'
export {
  FORMAT_KEY,
  COUNTERS_KEY,
  COMMIT_TOKEN_KEY,
  PACK_LENGTH_RANGE,
  packLengthKey,
  parsePackLengthKey,
  CHANGE_RECORD_RANGE,
  changeRecordKey,
  parseChangeRecordKey,
} from './meta-keys'
export {
  HEAD,
  assertRefName,
  refKey,
  refName,
  parseRefKey,
  forkOf,
  describeRef,
  namesOf,
} from './ref-keys'
export type { RefKind } from './ref-keys'
export { sequenceKey, isSequenceKey, parseSequenceKey } from './sequence-keys'
export { assertSystemNamespace, systemKey, parseSystemKey } from './system-keys'
