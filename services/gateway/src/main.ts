import { runMain } from '../../kit/src/index.js';
import { startGateway } from './service.js';

runMain(() => startGateway());
