import { runService } from '../../kit/src/service/index.js';
import { attemptService } from './service.js';

runService(attemptService);
