import net from 'node:net';
import type { AddressInfo } from 'node:net';

/**
 * A loopback TCP relay in front of the API server that can silence the connections it carries:
 * they stay open but no byte moves, which is how a watch stalls when a NAT or load balancer drops
 * a flow without a reset. New connections keep working. Not a mock: every byte is the real server's.
 */
export class SilencingProxy {
  private readonly pairs = new Set<{ client: net.Socket; upstream: net.Socket }>();
  private readonly silenced: net.Socket[] = [];
  private server: net.Server | undefined;
  private frozen = false;

  constructor(private readonly target: { host: string; port: number }) {}

  async start(): Promise<number> {
    this.server = net.createServer((client) => {
      if (this.frozen) {
        // Accepted and then nothing: the client's request neither reaches the server nor fails.
        client.pause();
        this.silenced.push(client);
        return;
      }
      const upstream = net.connect(this.target.port, this.target.host);
      const pair = { client, upstream };
      this.pairs.add(pair);
      client.pipe(upstream);
      upstream.pipe(client);
      const drop = (): void => {
        this.pairs.delete(pair);
        client.destroy();
        upstream.destroy();
      };
      client.on('error', drop).on('close', drop);
      upstream.on('error', drop).on('close', drop);
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    return (this.server?.address() as AddressInfo).port;
  }

  /** Freezes every connection open right now, in both directions, without closing it. */
  silenceOpenConnections(): number {
    for (const { client, upstream } of this.pairs) {
      client.unpipe(upstream);
      upstream.unpipe(client);
      client.pause();
      upstream.pause();
      // Stop both ends from noticing anything: no FIN, no RST, no keepalive failure in test time.
      client.removeAllListeners('close');
      upstream.removeAllListeners('close');
      this.silenced.push(client, upstream);
    }
    const n = this.pairs.size;
    this.pairs.clear();
    return n;
  }

  /** Silences every open connection and every one opened from now on: the server is unreachable without a word. */
  freeze(): number {
    this.frozen = true;
    return this.silenceOpenConnections();
  }

  async stop(): Promise<void> {
    for (const { client, upstream } of this.pairs) {
      client.destroy();
      upstream.destroy();
    }
    for (const socket of this.silenced) socket.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
