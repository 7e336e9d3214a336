/**
 * The question bank's enumerations and id pattern, as the api reads them: the store owns the stored
 * values; the api (routes, schemas) reaches them here, and the domain's own validation (the deletion
 * use case) takes the id pattern from here, so no layer imports the one above it (issue 24).
 */
export { FOLDER_VISIBILITIES, TAXONOMY_KINDS, TYPE_STATUSES } from '../store/catalog-models.js';
export {
  CORE_TYPES,
  QUESTION_STATUSES,
  TAXONOMY_FIELDS,
  type CoreType,
  type QuestionStatus,
  type SubItemRow,
  type TaxonomyField,
} from '../store/question-models.js';

/**
 * An id any question-bank route accepts: the same alphabet the kit allows in actor headers, so ids
 * round-trip through paths and headers.
 */
export const ID_PATTERN = /^[A-Za-z0-9_.:@-]{1,128}$/;
