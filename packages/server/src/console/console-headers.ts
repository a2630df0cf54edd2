/**
 * The Content-Security-Policy of every console response: scripts, styles and connections
 * only from the server itself, no inline code, no plugins, no framing. Images and media may
 * also be `blob:` URLs (previews of files the console downloaded with its token). WebAssembly
 * may be compiled (`'wasm-unsafe-eval'`, not `eval`): the upload chunker is WebAssembly, and
 * falls back to slower JavaScript when refused.
 */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "media-src 'self' blob:",
  "frame-src 'self' blob:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ')

/** Headers every console response carries besides its own. */
export const CONSOLE_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': CONSOLE_CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
}

/** Hashed assets never change under their name; everything else is checked on each use. */
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable'
export const REVALIDATE_CACHE = 'no-cache'
