import { Writable } from 'node:stream';

/** A pino destination that keeps every line, so tests can assert what was (never) logged. */
export class LogCapture extends Writable {
  readonly lines: string[] = [];

  override _write(chunk: Buffer, _enc: BufferEncoding, done: (err?: Error | null) => void): void {
    this.lines.push(
      ...chunk
        .toString('utf8')
        .split('\n')
        .filter((l) => l.length > 0),
    );
    done();
  }

  get text(): string {
    return this.lines.join('\n');
  }

  records(): Array<Record<string, unknown>> {
    return this.lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  }
}
