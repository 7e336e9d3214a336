// A TLS-terminating TCP proxy for the local secure profile (scripts/infra.sh --profile secure): it
// stands in front of the plain MongoDB stand-in the way a TLS-enabled mongod or a service mesh would,
// so clients must trust the generated CA (and, on a route that says so, present a certificate the
// CA signed). No npm package: node:tls and node:net only.
//
//   node tls-proxy.mjs CONFIG.json [marker args, ignored]
//
// CONFIG: { "cert": "server.pem", "key": "server.key", "ca": "ca.pem",
//           "routes": [ { "listen": "127.0.0.1:27047", "target": "127.0.0.1:27067", "clientCert": "none" },
//                       { "listen": "127.0.0.1:27057", "target": "127.0.0.1:27067", "clientCert": "require" } ] }
// One line per listener on stdout once it listens; handshake failures are logged (one line each,
// no payload). A client without a certificate on a 'require' route gets OpenSSL's "certificate
// required" alert; one whose certificate the CA did not sign is dropped right after the handshake
// (Node checks the chain itself and sends no alert, nor an event to log). SIGTERM/SIGINT close the listeners and every open connection, then exit 0.
import { readFileSync } from 'node:fs';
import net from 'node:net';
import process from 'node:process';
import tls from 'node:tls';

const log = (msg) => process.stdout.write(`${new Date().toISOString()} tls-proxy: ${msg}\n`);

function splitHostPort(value, what) {
  const i = value.lastIndexOf(':');
  const port = Number(value.slice(i + 1));
  if (i <= 0 || !Number.isInteger(port) || port < 1 || port > 65535) {
    throw new Error(`${what} must be host:port (got '${value}')`);
  }
  return { host: value.slice(0, i), port };
}

function loadConfig(file) {
  const raw = JSON.parse(readFileSync(file, 'utf8'));
  if (!Array.isArray(raw.routes) || raw.routes.length === 0) throw new Error('config: routes must be a non-empty list');
  const routes = raw.routes.map((r, n) => {
    if (r.clientCert !== 'none' && r.clientCert !== 'require') {
      throw new Error(`config: routes[${n}].clientCert must be 'none' or 'require'`);
    }
    return {
      listen: splitHostPort(r.listen, `routes[${n}].listen`),
      target: splitHostPort(r.target, `routes[${n}].target`),
      requireCert: r.clientCert === 'require',
    };
  });
  return { cert: readFileSync(raw.cert), key: readFileSync(raw.key), ca: readFileSync(raw.ca), routes };
}

const open = new Set();

// Pipe a decrypted client socket to a new plain connection to the target; either side ending or
// failing ends both.
function relay(client, target) {
  const upstream = net.connect(target.port, target.host);
  open.add(client);
  open.add(upstream);
  const end = () => {
    client.destroy();
    upstream.destroy();
    open.delete(client);
    open.delete(upstream);
  };
  client.on('error', end).on('close', end);
  upstream.on('error', end).on('close', end);
  client.pipe(upstream).pipe(client);
}

function listen(config, route) {
  const server = tls.createServer({
    cert: config.cert,
    key: config.key,
    ca: config.ca,
    requestCert: route.requireCert,
    rejectUnauthorized: route.requireCert,
    minVersion: 'TLSv1.2',
  });
  const where = `${route.listen.host}:${route.listen.port}`;
  server.on('secureConnection', (socket) => relay(socket, route.target));
  server.on('tlsClientError', (err, socket) => {
    log(
      `${where}: TLS handshake${socket.remoteAddress ? ` from ${socket.remoteAddress}` : ''} failed: ${err.code ?? ''} ${err.message}`,
    );
    socket.destroy();
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(route.listen.port, route.listen.host, () => {
      const mode = route.requireCert ? 'client certificate required' : 'no client certificate';
      log(`listening on ${where} -> ${route.target.host}:${route.target.port} (${mode})`);
      resolve(server);
    });
  });
}

async function main() {
  const file = process.argv[2];
  if (!file) throw new Error('usage: node tls-proxy.mjs CONFIG.json');
  const config = loadConfig(file);
  const servers = await Promise.all(config.routes.map((route) => listen(config, route)));
  const stop = (signal) => {
    log(`${signal}: closing ${servers.length} listener(s) and ${open.size} socket(s)`);
    for (const s of servers) s.close();
    for (const s of open) s.destroy();
    process.exit(0);
  };
  process.on('SIGTERM', stop).on('SIGINT', stop);
}

main().catch((err) => {
  log(`error: ${err.message}`);
  process.exit(1);
});
