import { defineConfig } from 'tsup'

export default defineConfig({
  // `node` is the Node-only entry (`@svcdb/client/node`); the main entry stays browser-safe.
  entry: { index: 'src/index.ts', 'node/index': 'src/node/index.ts' },
  format: ['esm'],
  platform: 'neutral',
  // Only the Node entry imports these; leave them to the runtime.
  external: [/^node:/],
  removeNodeProtocol: false,
  target: 'es2022',
  dts: true,
  sourcemap: true,
  clean: true,
})
