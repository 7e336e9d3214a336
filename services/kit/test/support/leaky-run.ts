// A finished "test run" that leaks: a listening server, an interval and a sleeping child process.
// exit-watchdog.test.ts runs it as a process; argv: grace in ms, the exit code the run would have.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { armExitWatchdog } from './exit-watchdog.js';

const [grace = '500', code = '0'] = process.argv.slice(2);
createServer().listen(0, '127.0.0.1');
setInterval(() => undefined, 60_000);
const child = spawn('sleep', ['600'], { stdio: 'ignore' });
process.stdout.write(`child ${child.pid}\n`);
process.exitCode = Number(code);
process.on('exit', () => process.stdout.write('exit handlers ran\n'));
armExitWatchdog(Number(grace));
