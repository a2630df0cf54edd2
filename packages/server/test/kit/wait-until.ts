/**
 * Polls `done` every 10 ms until it holds; fails naming `what` after `timeoutMs` (30 s by
 * default). For conditions another node or process makes true in its own time.
 */
export async function waitUntil(
  what: string,
  done: () => boolean | Promise<boolean>,
  timeoutMs = 30_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}
