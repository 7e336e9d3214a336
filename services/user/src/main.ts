import { runService } from '../../kit/src/service/index.js';
import { userService } from './service.js';

runService(userService);
