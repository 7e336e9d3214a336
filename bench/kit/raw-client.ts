// A keep-alive HTTP/1.1 client over raw sockets: one request in flight per connection, responses
// framed by Content-Length. Much cheaper per request than fetch or http.request, so on a 2-core
// machine the load generator does not become the bottleneck and hide the server's cost.
import net from 'node:net';

const HEADER_END = Buffer.from('\r\n\r\n');

export class RawConnection {
  private buffer: Buffer = Buffer.alloc(0);
  private pending: ((ok: boolean) => void) | undefined;

  private constructor(
    private readonly socket: net.Socket,
    private readonly request: Buffer,
  ) {
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
    socket.on('error', () => this.settle(false));
    socket.on('close', () => this.settle(false));
  }

  static async open(port: number, path: string): Promise<RawConnection> {
    const socket = net.connect(port, '127.0.0.1');
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    const request = Buffer.from(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n`);
    return new RawConnection(socket, request);
  }

  /** Sends one request; resolves true on a complete 200 response. */
  get(): Promise<boolean> {
    if (this.socket.destroyed) return Promise.resolve(false);
    return new Promise((resolve) => {
      this.pending = resolve;
      this.socket.write(this.request);
    });
  }

  close(): void {
    this.socket.destroy();
  }

  private onData(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    const end = this.buffer.indexOf(HEADER_END);
    if (end < 0) return;
    const head = this.buffer.subarray(0, end).toString('latin1');
    const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
    const total = end + HEADER_END.length + length;
    if (this.buffer.length < total) return;
    this.buffer = this.buffer.subarray(total);
    this.settle(head.startsWith('HTTP/1.1 200'));
  }

  private settle(ok: boolean): void {
    const done = this.pending;
    this.pending = undefined;
    done?.(ok);
  }
}
