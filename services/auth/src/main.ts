import { runService } from '../../kit/src/service/index.js';
import { authService } from './service.js';

runService(authService);
