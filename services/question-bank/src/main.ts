import { runService } from '../../kit/src/service/index.js';
import { questionBankService } from './service.js';

runService(questionBankService);
