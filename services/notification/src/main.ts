import { runService } from '../../kit/src/index.js';
import { notificationService } from './service.js';

runService(notificationService);
