import { runService } from '../../kit/src/index.js';
import { analyticsService } from './service.js';

runService(analyticsService);
