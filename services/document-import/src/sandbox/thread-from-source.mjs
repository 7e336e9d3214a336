// Starts a parse thread from source: Node 20 cannot start a .ts file as a worker's main module even with
// --import tsx, so this plain module registers tsx's loader in the thread, then loads thread.ts. Compiled (dist/),
// pool.ts starts thread.js directly and this file is not used.
import { register } from 'tsx/esm/api';

register();
await import('./thread.ts');
