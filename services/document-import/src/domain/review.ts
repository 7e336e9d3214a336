import { AppError } from '../../../kit/src/core/index.js';
import { saveReview as storeReview } from './jobs/review.js';
import type { JobDetail } from './jobs/types.js';
import { CODES, MSG } from '../messages.js';
import type { ImportDeps } from './deps.js';
import { draftToken } from './fast-jobs.js';
import { jobScope, visibleJob, type Scope } from './scope.js';

export interface ReviewBody {
  parseResult?: Record<string, unknown>;
  title?: string;
  sourceText?: string;
  docxFastTempDraftToken?: string;
}

type ReviewView = Omit<JobDetail, 'originalParseResultJson'>;

/** Pure: the token check; only `materialized-<job id>` is this service's, other tokens stay legacy. */
export function assertDraftToken(jobId: string, token: string | undefined): void {
  if (token === undefined || token === draftToken(jobId)) return;
  throw new AppError(CODES.validation, MSG.tokenInvalid, {
    details: [{ path: 'docxFastTempDraftToken', message: MSG.tokenInvalid }],
  });
}

/** Pure: the answer overlays `sourceText` on the stored result; storage keeps the result verbatim. */
export function overlaySourceText(view: ReviewView, sourceText: string | undefined): ReviewView {
  if (sourceText === undefined || !view.parseResultJson) return view;
  return { ...view, parseResultJson: { ...view.parseResultJson, sourceText } };
}

const withoutOriginal = ({ originalParseResultJson: _o, ...rest }: JobDetail): ReviewView => rest;

/**
 * Saves a review: `parseResult` verbatim; `sourceText` alone is reparsed by the baseline parser
 * (its warning added) and that result saved; a token alone is an acknowledgement that changes nothing.
 */
export async function saveReview(deps: ImportDeps, s: Scope, id: string, body: ReviewBody): Promise<ReviewView> {
  const job = await visibleJob(deps.jobs, s, id);
  assertDraftToken(job.id, body.docxFastTempDraftToken);
  const parseResult = body.parseResult ?? baseline(deps, body.sourceText);
  if (!parseResult) {
    if (body.docxFastTempDraftToken === undefined) {
      throw new AppError(CODES.validation, MSG.reviewEmpty, {
        details: [{ path: 'parseResult', message: 'is required' }],
      });
    }
    if (job.status !== 'COMPLETED') throw new AppError(CODES.jobNotCompleted, MSG.jobNotCompleted);
    return withoutOriginal(job);
  }
  const saved = await storeReview(deps.jobs, jobScope(s), job.id, { parseResult, title: body.title });
  const overlay = body.parseResult ? body.sourceText : undefined;
  return overlaySourceText(withoutOriginal(saved), overlay);
}

function baseline(deps: ImportDeps, sourceText: string | undefined): Record<string, unknown> | undefined {
  if (sourceText === undefined) return undefined;
  return { ...deps.baselineReparse(sourceText), sourceText };
}
