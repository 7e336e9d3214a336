/**
 * Thrown when the environment does not satisfy a config schema; the message is one line naming the
 * variable. Its own module so config.ts and the config modules it spreads (kafka-config.ts) can
 * both use it without an import cycle, whichever of them a process loads first.
 */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}
