import { runService } from '../../kit/src/index.js';
import { attemptService } from './service.js';

runService(attemptService);
