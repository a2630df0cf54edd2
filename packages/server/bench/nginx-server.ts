import { spawn } from 'node:child_process'
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { connect, createServer } from 'node:net'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'

/** nginx serving a plain directory on loopback, for the side-by-side bench. */
export interface RunningNginx {
  url: URL
  close(): Promise<void>
}

/**
 * Starts `nginx` (the binary at `binary`) on an ephemeral loopback port with a generated
 * config in a temp directory: 2 workers, static GET, WebDAV `PUT` (no fsync, as nginx ships)
 * into the same directory, no body size limit, no access log. Everything it writes (files,
 * body temp files, error log, pid file) stays in that directory, removed by `close`.
 */
export async function startNginx(binary: string): Promise<RunningNginx> {
  // The port is picked free then handed to nginx, which cannot report one it chose itself;
  // another process may take it in between, so a failed start is retried on a new port.
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(binary, await freePort())
    } catch (err) {
      if (attempt === 3) throw err
    }
  }
}

async function startOnce(binary: string, port: number): Promise<RunningNginx> {
  const prefix = await mkdtemp(join(tmpdir(), 'svcdb-bench-nginx-'))
  await mkdir(join(prefix, 'root'))
  const conf = join(prefix, 'nginx.conf')
  await writeFile(conf, nginxConfig(prefix, port))
  const errorLog = join(prefix, 'error.log')
  const child = spawn(binary, ['-p', prefix, '-c', conf, '-e', errorLog, '-g', 'daemon off;'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let stderr = ''
  child.stderr.on('data', (part: Buffer) => (stderr += part.toString()))
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  let running = true
  void exited.then(() => (running = false))
  const close = async () => {
    if (running) child.kill('SIGTERM')
    await exited
    await rm(prefix, { recursive: true, force: true })
  }
  const deadline = Date.now() + 10_000
  while (!(await accepts(port))) {
    if (!running || Date.now() > deadline) {
      const log = await readFile(errorLog, 'utf8').catch(() => '')
      await close()
      throw new Error(`nginx did not start on port ${port}: ${(stderr + log).trim()}`)
    }
    await sleep(20)
  }
  return { url: new URL(`http://127.0.0.1:${port}`), close }
}

function nginxConfig(prefix: string, port: number): string {
  // Workers of a master started as root run as `nobody` unless told; they must write here.
  const user = process.getuid?.() === 0 ? 'user root root;' : ''
  const temp = (name: string) => `${name}_temp_path ${join(prefix, name)};`
  return `${user}
worker_processes 2;
pid ${join(prefix, 'nginx.pid')};
error_log ${join(prefix, 'error.log')} warn;
events { worker_connections 1024; }
http {
  access_log off;
  default_type application/octet-stream;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 1000000;
  ${['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(temp).join('\n  ')}
  server {
    listen 127.0.0.1:${port};
    root ${join(prefix, 'root')};
    client_max_body_size 0;
    location / {
      dav_methods PUT;
      create_full_put_path on;
    }
  }
}
`
}

async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    socket.once('connect', () => {
      socket.destroy()
      resolve(true)
    })
    socket.once('error', () => resolve(false))
  })
}
