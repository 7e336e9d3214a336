import { runService } from '../../kit/src/service/index.js';
import { analyticsService } from './service.js';

runService(analyticsService);
