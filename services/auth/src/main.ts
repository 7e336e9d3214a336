import { runService } from '../../kit/src/index.js';
import { authService } from './service.js';

runService(authService);
