// Where the test servers are: given by the environment, or started by the global hooks.

export function testMongoUri(): string {
  const uri = process.env.MONGODB_URI ?? process.env.EDU_TEST_MONGODB_URI;
  if (!uri) throw new Error('no MongoDB for tests: set MONGODB_URI or let scripts/infra.sh start one');
  return uri;
}

export function testKafkaBrokers(): string[] {
  const brokers = process.env.KAFKA_BROKERS ?? process.env.EDU_TEST_KAFKA_BROKERS;
  if (!brokers) throw new Error('no Kafka for tests: set KAFKA_BROKERS or let scripts/infra.sh start one');
  return brokers.split(',');
}

/** One database per test file and process, so parallel runs and files never share rows. */
export function testDbName(service: string, file: string): string {
  const base = file
    .replace(/^.*\//, '')
    .replace(/\.test\.[jt]s$/, '')
    .replace(/[^A-Za-z0-9]/g, '_');
  return `edu_${service}_t${process.pid}_${base}`.slice(0, 63);
}

/**
 * Whether the test MongoDB runs transactions, as its provisioner said (scripts/infra.sh prints
 * MONGODB_TRANSACTIONS); undefined for a server given by MONGODB_URI without that statement.
 */
export function testMongoTransactions(): boolean | undefined {
  const said = process.env.MONGODB_TRANSACTIONS ?? process.env.EDU_TEST_MONGODB_TRANSACTIONS;
  return said === undefined ? undefined : said === 'true';
}
