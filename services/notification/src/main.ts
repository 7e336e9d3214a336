import { runService } from '../../kit/src/service/index.js';
import { notificationService } from './service.js';

runService(notificationService);
