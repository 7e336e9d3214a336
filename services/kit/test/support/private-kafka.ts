// A private single-node KRaft Kafka for tests that must stop a broker: started from the jars that
// scripts/infra.sh cached, with its own temp data dir and free ports, so the shared test broker
// is never touched. Only the pid this helper spawned is ever signalled.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, createWriteStream } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Kafka, logLevel } from 'kafkajs';
import { versionPin } from '../../../../scripts/lib/versions.js';

const KAFKA_VERSION = versionPin('KAFKA_VERSION');
const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const JVM_OPTS = [
  '-XX:+UseSerialGC',
  '-XX:TieredStopAtLevel=1',
  '-XX:+ExitOnOutOfMemoryError',
  '-Djava.awt.headless=true',
];

function kafkaHome(): string {
  const cache = process.env.EDU_CACHE_DIR ?? path.join(os.homedir(), '.cache', 'edu-platform');
  return path.join(cache, `kafka-${KAFKA_VERSION}`);
}

/**
 * `n` distinct free ports: every listener stays open until all are bound (closing each before
 * asking for the next let the OS hand the same port out twice: broker and controller then clash).
 */
export async function freePorts(n: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: n },
      () =>
        new Promise<net.Server>((resolve, reject) => {
          const srv = net.createServer();
          srv.once('error', reject);
          srv.listen(0, '127.0.0.1', () => resolve(srv));
        }),
    ),
  );
  const ports = servers.map((srv) => (srv.address() as net.AddressInfo).port);
  await Promise.all(servers.map((srv) => new Promise((resolve) => srv.close(resolve))));
  return ports;
}

function clusterId(): string {
  for (;;) {
    const id = randomBytes(16).toString('base64url');
    if (!id.startsWith('-')) return id;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class PrivateKafka {
  private child: ChildProcess | undefined;
  private exited: Promise<void> | undefined;
  private readonly dir: string;
  private readonly props: string;
  readonly brokers: string[];

  private constructor(
    readonly port: number,
    readonly controllerPort: number,
  ) {
    this.dir = mkdtempSync(path.join(os.tmpdir(), 'edu-private-kafka-'));
    this.props = path.join(this.dir, 'server.properties');
    this.brokers = [`127.0.0.1:${port}`];
  }

  /** Renders the config, formats the data dir and starts the broker; resolves once it answers. */
  static async start(timeoutMs = 90000): Promise<PrivateKafka> {
    const [port, controllerPort] = await freePorts(2);
    const k = new PrivateKafka(port!, controllerPort!);
    try {
      k.render();
      k.format();
      await k.launch(timeoutMs);
    } catch (err) {
      await k.dispose();
      throw err;
    }
    return k;
  }

  private render(): void {
    const tpl = readFileSync(path.join(repoRoot, 'tools/kafka/server.properties.template'), 'utf8');
    const out = tpl
      .replaceAll('@KAFKA_PORT@', String(this.port))
      .replaceAll('@CONTROLLER_PORT@', String(this.controllerPort))
      .replaceAll('@LOG_DIRS@', path.join(this.dir, 'data'));
    writeFileSync(this.props, out);
  }

  private javaArgs(): string[] {
    return [
      ...JVM_OPTS,
      `-Dlog4j.configuration=file:${path.join(repoRoot, 'tools/kafka/log4j.properties')}`,
      `-Dkafka.logs.dir=${this.dir}`,
      '-cp',
      `${kafkaHome()}/libs/*`,
    ];
  }

  private format(): void {
    const java = process.env.JAVA_HOME ? path.join(process.env.JAVA_HOME, 'bin/java') : 'java';
    const args = ['-Xmx256m', ...this.javaArgs(), 'kafka.tools.StorageTool', 'format', '-t', clusterId()];
    const r = spawnSync(java, [...args, '-c', this.props, '--ignore-formatted'], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`formatting the private kafka failed: ${r.stderr || r.stdout}`);
  }

  private async launch(timeoutMs: number): Promise<void> {
    const java = process.env.JAVA_HOME ? path.join(process.env.JAVA_HOME, 'bin/java') : 'java';
    const log = createWriteStream(path.join(this.dir, 'kafka.log'), { flags: 'a' });
    const child = spawn(java, ['-Xms64m', '-Xmx512m', ...this.javaArgs(), 'kafka.Kafka', this.props], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.pipe(log);
    child.stderr.pipe(log);
    this.child = child;
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    // If the test process dies first, the broker must not outlive it.
    const reap = () => child.kill('SIGKILL');
    process.once('exit', reap);
    child.once('exit', () => process.removeListener('exit', reap));
    await this.waitReady(timeoutMs);
  }

  private async waitReady(timeoutMs: number): Promise<void> {
    const kafka = new Kafka({ brokers: this.brokers, logLevel: logLevel.NOTHING, retry: { retries: 0 } });
    const deadline = Date.now() + timeoutMs;
    let last = 'none yet';
    while (Date.now() < deadline) {
      if (this.child && this.child.exitCode !== null)
        throw new Error(`private kafka exited early (log: ${this.dir}/kafka.log)`);
      const admin = kafka.admin();
      try {
        await admin.connect();
        await admin.describeCluster();
        await admin.listTopics();
        return;
      } catch (err) {
        last = (err as Error).message;
      } finally {
        await admin.disconnect().catch(() => undefined);
      }
      await sleep(200);
    }
    throw new Error(`private kafka not ready after ${timeoutMs} ms: ${last}`);
  }

  /** SIGTERM to our broker; waits for it to exit (SIGKILL after `timeoutMs`). */
  async stop(timeoutMs = 30000): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timedOut = await Promise.race([this.exited!.then(() => false), sleep(timeoutMs).then(() => true)]);
    if (timedOut) {
      child.kill('SIGKILL');
      await this.exited;
    }
  }

  /** Starts the broker again on the same data dir and ports. */
  async restart(timeoutMs = 90000): Promise<void> {
    await this.stop();
    await this.launch(timeoutMs);
  }

  /** Stops the broker and removes its data dir; safe to call twice and after a failed start. */
  async dispose(): Promise<void> {
    if (this.child) {
      if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
      await this.exited;
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
