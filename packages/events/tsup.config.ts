import { defineConfig } from 'tsup'

export default defineConfig({
  entry: ['src/index.ts', 'src/sse/index.ts', 'src/testing/index.ts'],
  format: ['esm'],
  platform: 'neutral',
  target: 'es2022',
  dts: true,
  sourcemap: true,
  clean: true,
  // The conformance suite of `./testing` runs inside the caller's vitest.
  external: ['vitest'],
})
