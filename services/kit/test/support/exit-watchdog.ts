// A test run that has finished must end. Mocha (without --exit) waits for the event loop to drain,
// so one leaked socket, timer or child process keeps a finished run alive until CI's time limit
// (the summary printed, then nothing). The watchdog waits a grace period after the run's global
// teardown; a process still alive then names what kept it up, on stderr, and exits with the run's
// own exit code, so the 'exit' handlers (the leases on the local servers) still run.
import { execFileSync } from 'node:child_process';

/** How long a finished run may take to close what it opened before the watchdog ends it. */
export const EXIT_GRACE_MS = 30_000;

/** The resources that keep this process alive, counted by kind ("TCPSocketWrap x2, Timeout"). */
export function describeResources(kinds: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const kind of kinds) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  return [...counts].map(([kind, n]) => (n > 1 ? `${kind} x${n}` : kind)).join(', ') || 'none';
}

/** This process's live children as "pid args" lines (ps itself left out). */
function childProcesses(): string[] {
  try {
    return execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(process.pid)], { encoding: 'utf8' })
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '' && !/^\d+ ps -o pid=/.test(line));
  } catch {
    return []; // ps exits 1 when there is no child
  }
}

/** Arms the watchdog; call it at the end of a mocha global teardown. The timer never keeps the process up. */
export function armExitWatchdog(graceMs = EXIT_GRACE_MS): void {
  const timer = setTimeout(() => {
    const children = childProcesses();
    process.stderr.write(
      `\ntest run finished but the process did not exit within ${graceMs / 1000} s; still open: ` +
        `${describeResources(process.getActiveResourcesInfo())}\n` +
        children.map((line) => `  child ${line.slice(0, 200)}\n`).join('') +
        'ending it and its children now (a test leaked what is listed above)\n',
    );
    // Children left by a test are ours to end: one holding an inherited stdout would keep the
    // pipe of whoever reads this run open after we exit.
    for (const line of children) {
      try {
        process.kill(Number(line.split(' ')[0]), 'SIGTERM');
      } catch {
        // already gone
      }
    }
    process.exit();
  }, graceMs);
  timer.unref();
}
