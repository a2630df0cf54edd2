import { svelte } from '@sveltejs/vite-plugin-svelte'
import { defineConfig } from 'vite'

export default defineConfig({
  // The server serves the built files under /console/.
  base: '/console/',
  plugins: [svelte()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // Every script and stylesheet a file of its own: the server's CSP forbids inline ones.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
  },
})
