// A few parse threads with V8 heap and stack limits and a time limit per document, behind a bounded queue. A thread
// that runs out of memory or time is terminated and replaced; its caller gets a refusal, the process lives on.
import { Worker } from 'node:worker_threads';
import { DocxError } from '../parser/index.js';
import { fromWire, type TaskKind, type TaskMessage, type ThreadMessage } from './protocol.js';

export interface SandboxOptions {
  /** parse threads (started when first needed, then kept) */
  threads: number;
  /** documents waiting for a thread; one more is refused (busy) */
  maxQueue: number;
  /** wall-clock time one document may take in its thread */
  timeLimitMs: number;
  maxOldGenerationSizeMb: number;
  maxYoungGenerationSizeMb: number;
  stackSizeMb: number;
}

export const DEFAULT_SANDBOX: SandboxOptions = {
  threads: 1,
  maxQueue: 8,
  timeLimitMs: 20_000,
  maxOldGenerationSizeMb: 256,
  maxYoungGenerationSizeMb: 32,
  stackSizeMb: 4,
};

/** The queue is full: the caller answers 503 with Retry-After (index.ts). */
export class SandboxBusyError extends Error {
  constructor(readonly queued: number) {
    super(`the DOCX parser is busy (${queued} documents waiting)`);
    this.name = 'SandboxBusyError';
  }
}

interface Pending {
  task: TaskMessage;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  current: Pending | null;
  timer: NodeJS.Timeout | null;
  /** why the pool is ending this thread (the time limit), so its exit is read right */
  ending: Error | null;
}

export interface SandboxStats {
  threads: number;
  busy: number;
  queued: number;
  /** threads ended by a limit or a crash and replaced */
  replaced: number;
}

// Compiled (dist/), the thread is the .js file beside this one; from source (tsx), a small .mjs that registers tsx
// in the thread first (thread-from-source.mjs says why).
const FROM_SOURCE = import.meta.url.endsWith('.ts');
const THREAD_URL = new URL(FROM_SOURCE ? './thread-from-source.mjs' : './thread.js', import.meta.url);

function limitError(code: 'DOCX_TOO_COMPLEX' | 'DOCX_PARSE_TIMEOUT', limit: string, max: number): DocxError {
  const message =
    code === 'DOCX_PARSE_TIMEOUT'
      ? `the document took longer than ${max} ms to parse`
      : `the document needs more than the ${max} MB a parse may use`;
  return new DocxError(code, message, { details: { part: 'word/document.xml', limit, max } });
}

export class ParserPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Pending[] = [];
  private nextId = 1;
  private replaced = 0;
  private closed = false;

  constructor(readonly options: SandboxOptions = DEFAULT_SANDBOX) {}

  run(kind: TaskKind, bytes: Uint8Array, documentId?: string): Promise<unknown> {
    if (this.closed) return Promise.reject(new Error('the DOCX parser sandbox is closed'));
    if (this.queue.length >= this.options.maxQueue && !this.idleSlot()) {
      return Promise.reject(new SandboxBusyError(this.queue.length));
    }
    const task: TaskMessage = { id: this.nextId++, kind, bytes, ...(documentId === undefined ? {} : { documentId }) };
    return new Promise((resolve, reject) => {
      this.queue.push({ task, resolve, reject });
      this.dispatch();
    });
  }

  stats(): SandboxStats {
    const busy = this.slots.filter((s) => s.current).length;
    return { threads: this.slots.length, busy, queued: this.queue.length, replaced: this.replaced };
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const p of this.queue.splice(0)) p.reject(new Error('the DOCX parser sandbox is closed'));
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }

  private idleSlot(): Slot | undefined {
    return this.slots.find((s) => s.ready && !s.current);
  }

  private dispatch(): void {
    for (let slot = this.idleSlot(); slot && this.queue.length > 0; slot = this.idleSlot()) this.start(slot);
    if (this.queue.length > 0 && this.slots.length < this.options.threads) this.spawn();
  }

  private start(slot: Slot): void {
    const pending = this.queue.shift()!;
    slot.current = pending;
    slot.worker.ref();
    slot.timer = setTimeout(() => this.timeOut(slot), this.options.timeLimitMs);
    slot.worker.postMessage(pending.task);
  }

  private timeOut(slot: Slot): void {
    slot.ending = limitError('DOCX_PARSE_TIMEOUT', 'parse time (ms)', this.options.timeLimitMs);
    void slot.worker.terminate();
  }

  private spawn(): void {
    const o = this.options;
    const worker = new Worker(THREAD_URL, {
      // the parent's heap flag would fight resourceLimits
      execArgv: process.execArgv.filter((a) => !a.startsWith('--max-old-space-size')),
      resourceLimits: {
        maxOldGenerationSizeMb: o.maxOldGenerationSizeMb,
        maxYoungGenerationSizeMb: o.maxYoungGenerationSizeMb,
        stackSizeMb: o.stackSizeMb,
      },
    });
    const slot: Slot = { worker, ready: false, current: null, timer: null, ending: null };
    this.slots.push(slot);
    worker.on('message', (m: ThreadMessage) => this.onMessage(slot, m));
    worker.on('error', (err: Error & { code?: string }) => {
      if (err.code === 'ERR_WORKER_OUT_OF_MEMORY') {
        slot.ending ??= limitError('DOCX_TOO_COMPLEX', 'parse memory (MB)', o.maxOldGenerationSizeMb);
      } else slot.ending ??= err;
    });
    worker.on('exit', () => this.onExit(slot));
  }

  private onMessage(slot: Slot, m: ThreadMessage): void {
    if ('ready' in m) {
      slot.ready = true;
      slot.worker.unref();
      this.dispatch();
      return;
    }
    const pending = slot.current;
    this.finish(slot);
    if (pending && pending.task.id === m.id) {
      if (m.ok) pending.resolve(m.value);
      else pending.reject(fromWire(m.error));
    }
    this.dispatch();
  }

  private finish(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.current = null;
    slot.worker.unref();
  }

  // A thread ended: by a limit (its document is refused), or by a crash. It is replaced when work waits; a thread
  // that dies before it is ready fails the waiting documents rather than being restarted in a loop.
  private onExit(slot: Slot): void {
    const pending = slot.current;
    const why = slot.ending ?? new Error('the DOCX parse thread exited');
    this.finish(slot);
    this.slots.splice(this.slots.indexOf(slot), 1);
    if (this.closed) return;
    this.replaced += 1;
    pending?.reject(why);
    if (!slot.ready) for (const p of this.queue.splice(0)) p.reject(why);
    this.dispatch();
  }
}
