import { runSharedDatabaseSuite } from '@svcdb/engine/testing'
import { openSharedNodes, openStore } from './test-nodes'
import { testSchemas } from './test-schema'

const newSchema = testSchemas()

// Two nodes: two Databases, each on its own PostgreSQL store (its own pool) over one schema;
// the suite reads what they wrote through a third store.
runSharedDatabaseSuite('postgres', async () => {
  const schema = newSchema()
  const [a, b] = await openSharedNodes(schema)
  const meta = await openStore(schema)
  return {
    a,
    b,
    meta,
    async close() {
      await a.close()
      await b.close()
      await meta.close()
    },
  }
})
