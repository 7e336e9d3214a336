import { runService } from '../../kit/src/index.js';
import { userService } from './service.js';

runService(userService);
