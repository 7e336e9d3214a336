// MongoDB transport security and credentials from the environment: a private CA, an optional
// client certificate and a user, all from files and variables the chart fills from Secrets.
import { readFileSync } from 'node:fs';
import { createSecureContext } from 'node:tls';
import Joi from 'joi';
import { ConfigError } from './config-error.js';

/** The MONGODB_TLS* and credential variables (every one optional; see mongoTlsConfig). */
export interface MongoTlsConfig {
  /** Unset: TLS when a CA file or client certificate is given, else as the URI says. */
  MONGODB_TLS?: boolean;
  MONGODB_TLS_CA_FILE?: string;
  MONGODB_TLS_CERT_FILE?: string;
  MONGODB_TLS_KEY_FILE?: string;
  MONGODB_USERNAME?: string;
  MONGODB_PASSWORD?: string;
  MONGODB_AUTH_SOURCE?: string;
}

/** What the driver gets on top of the URI (mongoose `createConnection` options). */
export interface MongoDriverOptions {
  tls?: true;
  ca?: Buffer;
  cert?: Buffer;
  key?: Buffer;
  auth?: { username: string; password: string };
  authSource?: string;
}

const file = Joi.string().empty('');
const pairOf = (other: string) =>
  file.when(other, {
    is: Joi.exist(),
    then: Joi.required(),
    otherwise: Joi.forbidden(),
  });
const bothOrNeither = (other: string) => ({
  'any.required': `{{#label}} is required with ${other} (both or neither)`,
  'any.unknown': `{{#label}} is set without ${other} (both or neither)`,
});
const noTlsOff = (variable: string) => ({
  is: Joi.exist(),
  then: Joi.invalid(false).messages({ 'any.invalid': `{{#label}} is false but ${variable} is set` }),
});

/**
 * Joi keys for the MongoDB TLS and credential variables, spread into a config schema.
 * A CA file or client certificate implies TLS (an explicit MONGODB_TLS=false with one is refused);
 * the certificate and key come as a pair, and so do the username and password. Empty values count
 * as unset (a chart may render them so).
 */
export const mongoTlsConfig = {
  MONGODB_TLS: Joi.boolean()
    .empty('')
    .when('MONGODB_TLS_CA_FILE', noTlsOff('MONGODB_TLS_CA_FILE'))
    .when('MONGODB_TLS_CERT_FILE', noTlsOff('MONGODB_TLS_CERT_FILE')),
  MONGODB_TLS_CA_FILE: file,
  MONGODB_TLS_CERT_FILE: file,
  MONGODB_TLS_KEY_FILE: pairOf('MONGODB_TLS_CERT_FILE').messages(bothOrNeither('MONGODB_TLS_CERT_FILE')),
  MONGODB_USERNAME: file,
  MONGODB_PASSWORD: pairOf('MONGODB_USERNAME').messages(bothOrNeither('MONGODB_USERNAME')),
  MONGODB_AUTH_SOURCE: file,
};

/**
 * The driver options for a config validated with mongoTlsConfig. The files are read here, once, at
 * start, and checked (PEM, key matching certificate), so a missing, unreadable or wrong file stops
 * the process with one line naming its variable instead of a TLS failure on the first connection.
 * No message carries the password.
 */
export function mongoDriverOptions(config: MongoTlsConfig): MongoDriverOptions {
  const options: MongoDriverOptions = {};
  if (config.MONGODB_TLS || config.MONGODB_TLS_CA_FILE || config.MONGODB_TLS_CERT_FILE) options.tls = true;
  if (config.MONGODB_TLS_CA_FILE) options.ca = readCa(config.MONGODB_TLS_CA_FILE);
  if (config.MONGODB_TLS_CERT_FILE && config.MONGODB_TLS_KEY_FILE) {
    Object.assign(options, readClientCertificate(config.MONGODB_TLS_CERT_FILE, config.MONGODB_TLS_KEY_FILE));
  }
  if (config.MONGODB_USERNAME && config.MONGODB_PASSWORD) {
    options.auth = { username: config.MONGODB_USERNAME, password: config.MONGODB_PASSWORD };
  }
  if (config.MONGODB_AUTH_SOURCE) options.authSource = config.MONGODB_AUTH_SOURCE;
  return options;
}

function readPem(variable: string, path: string, marker: RegExp, what: string): Buffer {
  let content: Buffer;
  try {
    content = readFileSync(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    throw new ConfigError(`config: "${variable}" cannot be read (${path}: ${code})`);
  }
  if (!marker.test(content.toString('latin1'))) {
    throw new ConfigError(`config: "${variable}" (${path}) holds no PEM ${what}`);
  }
  return content;
}

const CERTIFICATE = /-----BEGIN CERTIFICATE-----/;
const PRIVATE_KEY = /-----BEGIN (?:RSA |EC )?PRIVATE KEY-----/;

function readCa(path: string): Buffer {
  const ca = readPem('MONGODB_TLS_CA_FILE', path, CERTIFICATE, 'certificate');
  secureContextOrFail('MONGODB_TLS_CA_FILE', { ca });
  return ca;
}

function readClientCertificate(certPath: string, keyPath: string): { cert: Buffer; key: Buffer } {
  const cert = readPem('MONGODB_TLS_CERT_FILE', certPath, CERTIFICATE, 'certificate');
  // An encrypted key would need a passphrase variable; Secrets hold keys unencrypted.
  const key = readPem('MONGODB_TLS_KEY_FILE', keyPath, PRIVATE_KEY, 'private key (unencrypted)');
  secureContextOrFail('MONGODB_TLS_KEY_FILE', { cert, key });
  return { cert, key };
}

// Node parses the PEM and matches the key to the certificate here, synchronously.
function secureContextOrFail(variable: string, parts: { ca?: Buffer; cert?: Buffer; key?: Buffer }): void {
  try {
    createSecureContext(parts);
  } catch (err) {
    throw new ConfigError(`config: "${variable}" is not usable: ${(err as Error).message}`);
  }
}
