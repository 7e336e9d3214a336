import { runService } from '../../kit/src/index.js';
import { documentImportService } from './service.js';

runService(documentImportService);
