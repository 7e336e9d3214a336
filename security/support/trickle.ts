// The slow client's tools: a raw HTTP/1.1 request whose body is sent a chunk at a time (or not at
// all), never finished unless asked, and what came back on its connection.
import net from 'node:net';

export interface Trickle {
  /** The answer's status line once it came (undefined while none did). */
  readonly status: number | undefined;
  /** Everything the connection received so far. */
  readonly received: string;
  /** True once the server closed (or reset) the connection. */
  readonly closed: boolean;
  /** Resolves with the status once an answer's status line arrives, or undefined if the connection closes without one. */
  answered: Promise<number | undefined>;
  /** Resolves once the connection is closed by either side. */
  ended: Promise<void>;
  /** Stops sending and closes the connection (idempotent). */
  close(): void;
}

export interface TrickleOptions {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  /** Bytes sent with the headers (chunked unless the headers carry a Content-Length). */
  first?: string | Buffer;
  /** One more chunk every `everyMs` (0: nothing more is sent, the body stays unfinished and idle). */
  everyMs?: number;
  /** What each later chunk carries (default one byte). */
  chunk?: string;
}

/** Opens one connection to `base` (http://host:port) and sends the request head and its first bytes. */
export function trickle(base: string, opts: TrickleOptions): Trickle {
  const url = new URL(base);
  const socket = net.connect(Number(url.port), url.hostname);
  const headers: Record<string, string> = { Host: url.host, ...(opts.headers ?? {}) };
  const chunked = !Object.keys(headers).some((h) => h.toLowerCase() === 'content-length');
  if (chunked) headers['Transfer-Encoding'] = 'chunked';
  const frame = (data: string | Buffer) =>
    chunked
      ? Buffer.concat([
          Buffer.from(`${Buffer.byteLength(data).toString(16)}\r\n`),
          Buffer.from(data),
          Buffer.from('\r\n'),
        ])
      : Buffer.from(data);
  const head = [
    `${opts.method ?? 'POST'} ${opts.path} HTTP/1.1`,
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
  ];
  const state = { status: undefined as number | undefined, received: '', closed: false };
  let timer: NodeJS.Timeout | undefined;
  let resolveAnswer: (s: number | undefined) => void = () => undefined;
  const answered = new Promise<number | undefined>((r) => (resolveAnswer = r));
  const ended = new Promise<void>((resolve) =>
    socket.once('close', () => {
      state.closed = true;
      clearInterval(timer);
      resolveAnswer(state.status);
      resolve();
    }),
  );
  socket.on('error', () => undefined);
  socket.on('data', (d: Buffer) => {
    state.received += d.toString('latin1');
    const m = /^HTTP\/1\.1 (\d{3})/.exec(state.received);
    if (m && state.status === undefined) {
      state.status = Number(m[1]);
      resolveAnswer(state.status);
    }
  });
  socket.write(`${head.join('\r\n')}\r\n\r\n`);
  if (opts.first !== undefined && Buffer.byteLength(opts.first) > 0) socket.write(frame(opts.first));
  if (opts.everyMs) {
    timer = setInterval(() => {
      if (!socket.destroyed) socket.write(frame(opts.chunk ?? 'a'));
    }, opts.everyMs);
  }
  return {
    get status() {
      return state.status;
    },
    get received() {
      return state.received;
    },
    get closed() {
      return state.closed;
    },
    answered,
    ended,
    close() {
      clearInterval(timer);
      socket.destroy();
    },
  };
}

/** The JSON body of a complete answer on a trickle's connection (Content-Length framed), if any. */
export function answerBody(t: Trickle): { error?: { code?: string; details?: { reason?: string } } } | undefined {
  const split = t.received.indexOf('\r\n\r\n');
  if (split < 0) return undefined;
  const body = t.received.slice(split + 4);
  const start = body.indexOf('{');
  const end = body.lastIndexOf('}');
  if (start < 0 || end < start) return undefined;
  try {
    return JSON.parse(Buffer.from(body.slice(start, end + 1), 'latin1').toString('utf8')) as ReturnType<
      typeof answerBody
    >;
  } catch {
    return undefined;
  }
}
