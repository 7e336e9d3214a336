import { runService } from '../../kit/src/service/index.js';
import { documentImportService } from './service.js';

runService(documentImportService);
