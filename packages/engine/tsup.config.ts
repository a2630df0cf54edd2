import { defineConfig } from 'tsup'

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    'chunking/index': 'src/chunking/index.ts',
    'query-language/index': 'src/query-language/index.ts',
    'testing/index': 'src/testing/index.ts',
  },
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  dts: true,
  sourcemap: true,
  clean: true,
  external: ['vitest'],
})
