// Pure decisions behind the routes.
import { expect } from 'chai';
import { approvalKey } from '../../src/domain/approve.js';
import { materializedAssetId } from '../../src/domain/fast-jobs.js';
import { listFilters } from '../../src/domain/jobs.js';
import { assertDraftToken, overlaySourceText } from '../../src/domain/review.js';
import { canSee } from '../../src/domain/scope.js';

describe('document-import domain (pure)', () => {
  const teacher = { organizationId: 'org-a', userId: 't1', role: 'TEACHER' as const };
  const admin = { organizationId: 'org-a', userId: 'a1', role: 'ADMIN' as const };

  it('canSee: own jobs; an ADMIN its whole organization; nobody another organization', () => {
    expect(canSee(teacher, { organizationId: 'org-a', createdBy: 't1' })).to.equal(true);
    expect(canSee(teacher, { organizationId: 'org-a', createdBy: 't2' })).to.equal(false);
    expect(canSee(admin, { organizationId: 'org-a', createdBy: 't2' })).to.equal(true);
    expect(canSee(admin, { organizationId: 'org-b', createdBy: 'a1' })).to.equal(false);
  });

  it('listFilters: non-admins and the library always list their own; an ADMIN may name a creator', () => {
    const q = { page: 1, limit: 20, status: 'COMPLETED' as const, createdBy: 't9' };
    expect(listFilters(teacher, q, false)).to.deep.equal({ status: 'COMPLETED', createdBy: 't1' });
    expect(listFilters(admin, q, false)).to.deep.equal({ status: 'COMPLETED', createdBy: 't9' });
    expect(listFilters(admin, { page: 1, limit: 20 }, false)).to.deep.equal({});
    expect(listFilters(admin, q, true)).to.deep.equal({ status: 'COMPLETED', createdBy: 'a1' });
  });

  it('materializedAssetId: matches asset id, media id, go asset id or content URL of a materialized reference only', () => {
    const result = {
      questions: [
        {
          media: [
            {
              media_asset_id: 'as-1',
              media_id: 'm-1',
              go_asset_id: 'g-1',
              url: '/api/storage/media-assets/as-1/content',
            },
          ],
        },
        { media: [{ media_asset_id: null, media_id: 'm-2', url: 'word/media/image2.png' }] },
        { groups: [{ image: { url: '/api/storage/media-assets/as-3/content?x=1' } }] },
      ],
    };
    for (const id of ['as-1', 'm-1', 'g-1', '/api/storage/media-assets/as-1/content'])
      expect(materializedAssetId(result, id)).to.equal('as-1');
    expect(materializedAssetId(result, 'as-3')).to.equal('as-3');
    expect(materializedAssetId(result, 'm-2')).to.equal(null);
    expect(materializedAssetId(result, 'word/media/image2.png')).to.equal(null);
    expect(materializedAssetId(null, 'as-1')).to.equal(null);
  });

  it('approvalKey: equal requests in any key order share a key; another run, review or target does not', () => {
    const job = { id: 'j1', run: 1, reviewedAt: null };
    const a = approvalKey(job, { target: 'QUESTION_BANK', questionMetadata: { subjectId: 'math', gradeLevel: 12 } });
    const b = approvalKey(job, { questionMetadata: { gradeLevel: 12, subjectId: 'math' }, target: 'QUESTION_BANK' });
    expect(a).to.equal(b);
    expect(
      approvalKey(
        { ...job, run: 2 },
        { target: 'QUESTION_BANK', questionMetadata: { subjectId: 'math', gradeLevel: 12 } },
      ),
    ).to.not.equal(a);
    expect(
      approvalKey(
        { ...job, reviewedAt: '2026-01-01T00:00:00.000Z' },
        { target: 'QUESTION_BANK', questionMetadata: { subjectId: 'math', gradeLevel: 12 } },
      ),
    ).to.not.equal(a);
    expect(approvalKey(job, { target: 'EXAM_DRAFT', examId: 'e1' })).to.not.equal(a);
    expect(
      approvalKey(job, { target: 'QUESTION_BANK', questionMetadata: { subjectId: 'math', gradeLevel: 12 } }, true),
    ).to.not.equal(a);
  });

  it('review: only materialized-<job id> is a token here; sourceText overlays the answer, not a missing result', () => {
    expect(() => assertDraftToken('j1', 'materialized-j1')).to.not.throw();
    expect(() => assertDraftToken('j1', undefined)).to.not.throw();
    expect(() => assertDraftToken('j1', 'materialized-j2')).to.throw(/materialized/);
    const view = { parseResultJson: { questions: [] } } as never;
    expect(overlaySourceText(view, 'text')).to.deep.equal({ parseResultJson: { questions: [], sourceText: 'text' } });
    expect(overlaySourceText({ parseResultJson: null } as never, 'text')).to.deep.equal({ parseResultJson: null });
    expect(overlaySourceText(view, undefined)).to.equal(view);
  });
});
