// A parse thread: runs the parser on the bytes it is sent, one document at a time, under the resource limits the
// pool started it with (pool.ts). Nothing here holds state between documents.
import { parentPort } from 'node:worker_threads';
import { parseDocx } from '../parser/index.js';
import { readDocxPackage } from '../parser/package.js';
import { toWire, type TaskMessage, type ThreadMessage } from './protocol.js';

function run(task: TaskMessage): unknown {
  if (task.kind === 'precheck') {
    readDocxPackage(task.bytes);
    return null;
  }
  return parseDocx(task.bytes, task.documentId === undefined ? {} : { documentId: task.documentId });
}

const port = parentPort;
if (port) {
  port.on('message', (task: TaskMessage) => {
    let reply: ThreadMessage;
    try {
      reply = { id: task.id, ok: true, value: run(task) };
    } catch (err) {
      reply = { id: task.id, ok: false, error: toWire(err) };
    }
    port.postMessage(reply);
  });
  port.postMessage({ ready: true } satisfies ThreadMessage);
}
