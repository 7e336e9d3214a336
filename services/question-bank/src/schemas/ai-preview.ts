import Joi from 'joi';
import { documented, named } from '../../../kit/src/http/index.js';
import type { AiSolution, AiSolutionAnswerKeys, SolutionInput } from '../domain/ai-preview/solution-body.js';
import { QUESTION_STATUSES } from '../domain/vocabulary.js';
import { ID_PATTERN, MAX_CONTENT, QUESTION_FIELDS, SOURCE_TYPES, type QuestionBody } from './questions.js';

// Length in characters (code points), as the OpenAPI document's maxLength counts them. Joi refuses
// '' unless allowed: the document form states minLength 1 (an allow('') adds '').
const chars = (max: number) =>
  documented(
    Joi.string().custom((value: string, helpers) =>
      [...value].length > max ? helpers.error('string.max', { limit: max }) : value,
    ),
    { minLength: 1, maxLength: max },
  );
const nonBlank = /\S/;
const previewId = Joi.string().pattern(ID_PATTERN).required();
const provenance = {
  provider: chars(100).pattern(nonBlank).description('AI provider (provenance).'),
  model: chars(200).pattern(nonBlank).description('AI model (provenance).'),
};

/** The draft body: a question's create body, the preview and its provenance; status, source and sourceType dropped. */
export type DraftBody = Omit<QuestionBody, 'status' | 'sourceType' | 'source' | 'sourceMetadataJson'> & {
  previewId: string;
  provider?: string;
  model?: string;
  generationMode?: string;
  sourceMetadata?: Record<string, unknown> | null;
  status?: undefined;
  sourceType?: undefined;
  source?: undefined;
  sourceMetadataJson?: undefined;
};

// The create body of POST /v1/questions, plus the preview and its provenance. The forced fields
// are accepted (a valid value) and overridden; the provenance goes to sourceMetadataJson.aiPreview,
// so sourceMetadataJson itself is not taken here.
export const aiPreviewDraftBody = named(
  'AiPreviewDraftRequest',
  Joi.object<DraftBody, true>({
    previewId: previewId.description(
      'The AI preview this draft came from. Idempotency key, scoped to (X-Organization-Id, X-User-Id).',
    ),
    ...QUESTION_FIELDS,
    content: QUESTION_FIELDS.content.required(),
    ...provenance,
    generationMode: chars(100)
      .pattern(nonBlank)
      .description('How the preview was generated, free text such as SIMILAR or FROM_TOPIC (provenance).'),
    sourceMetadata: Joi.object()
      .unknown(true)
      .allow(null)
      .description(
        'Reviewed source metadata of the preview (provenance), stored as is under sourceMetadataJson.aiPreview.sourceMetadata.',
      ),
    status: Joi.string()
      .valid(...QUESTION_STATUSES)
      .strip()
      .description('Accepted and ignored: an AI preview draft is always DRAFT.'),
    sourceType: Joi.string()
      .valid(...SOURCE_TYPES)
      .strip()
      .description('Accepted and ignored: always AI_GENERATED.'),
    source: chars(500).allow('', null).strip().description('Accepted and ignored: always `AI preview`.'),
    sourceMetadataJson: Joi.string().forbidden(),
  }).description(
    "The create body of POST /v1/questions (same fields, limits, defaults and aliases) plus `previewId` and the provenance fields, minus `sourceMetadataJson` (the service writes it: `{ aiPreview: { previewId, provider, model, generationMode, sourceMetadata } }`, absent members null). `status`, `source` and `sourceType` are accepted and overridden (DRAFT, `AI preview`, AI_GENERATED). The replay identity is the whole validated body after defaults and alias folding (options' isCorrect default false; `answerKeysJson` folded into `answerKeys`), compared by a canonical digest (object key order does not matter; array order does).",
  ),
);

type Step = string | { title?: string; content: string };

const step = Joi.alternatives<Step>().try(
  chars(MAX_CONTENT).allow(''),
  Joi.object<{ title?: string; content: string }, true>({
    title: chars(500).allow(''),
    content: chars(MAX_CONTENT).allow('').required(),
  }),
);

const solution = named(
  'AiPreviewSolution',
  Joi.object<AiSolution, true>({
    explanation: chars(MAX_CONTENT).pattern(nonBlank).required(),
    explanationJson: Joi.object()
      .unknown(true)
      .allow(null)
      .description(
        'Rich explanation document; default: one paragraph per line of `explanation`. Stored with `source: "ai-preview"`, `previewId`, `provider` and `model` (when given) and `steps` added at its top level.',
      ),
    steps: Joi.array()
      .items(step)
      .max(50)
      .description(
        'Solution steps; blank ones are dropped. Without `steps`, each non-blank line of `explanation` is a step.',
      ),
    answerKeys: Joi.object<AiSolutionAnswerKeys, true>({
      correctOptionIds: Joi.array().items(Joi.string().pattern(ID_PATTERN)).max(26).unique(),
      correctLabels: Joi.array().items(chars(20).pattern(nonBlank)).max(26).unique(),
      acceptedAnswers: Joi.array().items(chars(1000)).max(50),
      tolerance: Joi.number().min(0).max(1e9),
    }),
    correctBooleans: Joi.object<Partial<Record<'A' | 'B' | 'C' | 'D', boolean>>, true>({
      A: Joi.boolean(),
      B: Joi.boolean(),
      C: Joi.boolean(),
      D: Joi.boolean(),
    })
      .min(1)
      .description('TRUE_FALSE_GROUP: the truth of sub-items by label.'),
  }).description(
    "What a reviewed AI solution changes: the explanation (text and JSON) always; with `answerKeys`, the stored answer keys; when those name `correctLabels` or `correctOptionIds`, every option's `isCorrect` follows them and the stored keys carry both lists in option order (names of options the question lacks: 400 VALIDATION_ERROR); with `correctBooleans`, the TRUE_FALSE_GROUP sub-items' `correctBoolean` (a sub-item the question lacks: 400). Content, option texts, type, status, source, sourceType, sourceMetadataJson, taxonomy and tags never change. On a PUBLISHED question the result must still satisfy its base type, else 409 QUESTION_PUBLISH_CONFLICT.",
  ),
);

export const aiPreviewSolutionBody = named(
  'AiPreviewSolutionRequest',
  Joi.object<SolutionInput, true>({
    questionId: chars(128).pattern(nonBlank).required(),
    previewId: previewId.description(
      'Idempotency key, scoped to (X-Organization-Id, X-User-Id); separate from the draft previewIds.',
    ),
    ...provenance,
    solution: solution.required(),
  }).description(
    'The replay identity is (questionId, provider, model, solution) by canonical digest: the same previewId for another question, provider, model or solution is 400 AI_PREVIEW_CONFLICT.',
  ),
);
