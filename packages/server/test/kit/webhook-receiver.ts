import { once } from 'node:events'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

/** One webhook delivery a {@link startWebhookReceiver} received, and how it answered. */
export interface ReceivedDelivery {
  /** The `X-Svcdb-Delivery` header. */
  delivery: string
  eventId: string
  /** The event's entry paths, joined with `,`. */
  path: string
  status: number | 'hang'
}

/** A running receiver: its URL, what it got, and how to stop it. */
export interface WebhookReceiver {
  url: string
  received: ReceivedDelivery[]
  /** The deliveries it answered with a 2xx. */
  answered(): ReceivedDelivery[]
  close(): Promise<void>
}

/**
 * A real webhook receiver on loopback: `answer(n)` is the status of its n-th request ('hang'
 * never answers, as a stuck receiver would).
 */
export async function startWebhookReceiver(
  answer: (n: number) => number | 'hang' = () => 204,
): Promise<WebhookReceiver> {
  const received: ReceivedDelivery[] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        event_id: string
        payload: { entries: { path: string }[] }
      }
      const status = answer(received.length + 1)
      received.push({
        delivery: String(req.headers['x-svcdb-delivery']),
        eventId: body.event_id,
        path: body.payload.entries.map((e) => e.path).join(','),
        status,
      })
      if (status !== 'hang') res.writeHead(status).end('ok')
    })
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    answered: () => received.filter((r) => typeof r.status === 'number' && r.status < 300),
    async close() {
      server.closeAllConnections()
      server.close()
      await once(server, 'close')
    },
  }
}
