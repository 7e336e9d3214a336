import { expect } from 'chai';
import { createLogger, requestLineWriter } from '../src/core/index.js';
import { LogCapture } from './support/log-capture.js';

/** The line without its clock, which the two writes read at different moments. */
const timeless = (line: string) => line.replace(/"time":"[^"]+"/, '"time":"T"');

describe('kit request line', () => {
  const cases = [
    { reqId: '6f1c2a4e-1b7d-4c2a-9f3e-2d1a5b6c7d8e', method: 'GET', route: '/v1/items/:id', status: 200, ms: 0.4 },
    { reqId: 'given.id:42', method: 'POST', route: undefined, status: 404, ms: 12 },
    { reqId: 'x', method: 'M-SEARCH', route: '/v1/odd "quoted" \\ route/é', status: 500, ms: 1234.5 },
  ];

  it('is byte for byte what pino writes for logger.info(fields, "request")', () => {
    const fast = new LogCapture();
    const pinoOwn = new LogCapture();
    const write = requestLineWriter(createLogger({ name: 'svc', destination: fast }));
    const logger = createLogger({ name: 'svc', destination: pinoOwn });
    for (const line of cases) {
      write(line);
      logger.info(line, 'request');
    }
    expect(fast.lines).to.have.length(3);
    expect(fast.lines.map(timeless)).to.deep.equal(pinoOwn.lines.map(timeless));
    expect(fast.records()[2]!.route).to.equal(cases[2]!.route);
  });

  it('honours the level: nothing below info is written, and a level change takes effect', () => {
    const logs = new LogCapture();
    const logger = createLogger({ name: 'svc', level: 'warn', destination: logs });
    const write = requestLineWriter(logger);
    write(cases[0]!);
    expect(logs.lines).to.deep.equal([]);
    logger.level = 'info';
    write(cases[0]!);
    expect(logs.lines).to.have.length(1);
  });
});
