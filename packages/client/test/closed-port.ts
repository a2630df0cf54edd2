import { createServer } from 'node:net'

/**
 * A loopback port nothing listens on: bound, then released at once, so connecting to it is
 * refused. The OS picks ephemeral ports at random, so another test taking it meanwhile is
 * unlikely enough to ignore.
 */
export async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  await new Promise<void>((resolve) => server.close(() => resolve()))
  if (address === null || typeof address === 'string') throw new Error('no port was bound')
  return address.port
}
