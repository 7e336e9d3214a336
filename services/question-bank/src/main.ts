import { runService } from '../../kit/src/index.js';
import { questionBankService } from './service.js';

runService(questionBankService);
