import { runGateway } from './service.js';

runGateway();
