import { ref, type JsonObject } from '../../../kit/src/http/index.js';

/** The parser's output as the document names it (QasOutput and its parts): docx-file.ts and the parser's tests read these components by name. */
export const QAS_OUTPUT_SCHEMAS: JsonObject = {
  DocxErrorCode: {
    type: 'string',
    enum: [
      'DOCX_NOT_ZIP',
      'DOCX_CORRUPT',
      'DOCX_TOO_MANY_ENTRIES',
      'DOCX_TOO_LARGE',
      'DOCX_COMPRESSION_RATIO',
      'DOCX_UNSUPPORTED',
      'DOCX_MISSING_DOCUMENT',
      'DOCX_XML_DOCTYPE',
      'DOCX_XML_INVALID',
      'DOCX_NO_QUESTIONS_FOUND',
      'DOCX_TOO_COMPLEX',
      'DOCX_PARSE_TIMEOUT',
    ],
    description:
      "The parser's refusal codes (DOCX_TOO_COMPLEX: past the element, nesting or parse-memory limit, 413; DOCX_PARSE_TIMEOUT: past the parse time limit, 422). All but DOCX_NO_QUESTIONS_FOUND are refused by the upload routes before anything is spooled; DOCX_NO_QUESTIONS_FOUND is known only after the parse (422 on POST /qas, FAILED for a job).",
  },
  QuestionType: {
    type: 'string',
    enum: [
      'SINGLE_CHOICE',
      'DGNL_SINGLE_CHOICE',
      'MULTIPLE_CHOICE',
      'TRUE_FALSE_GROUP',
      'SHORT_NUMERIC_ANSWER',
      'SHORT_ANSWER',
      'ESSAY',
    ],
  },
  QasWarning: {
    type: 'object',
    additionalProperties: false,
    required: ['code', 'message'],
    properties: { code: { type: 'string' }, message: { type: 'string' }, question_id: { type: 'string' } },
  },
  QasOption: {
    type: 'object',
    additionalProperties: false,
    required: ['label', 'content'],
    properties: { label: { type: 'string', pattern: '^[A-H]$' }, content: { type: 'string' } },
  },
  QasSubItem: {
    type: 'object',
    additionalProperties: false,
    required: ['label', 'content', 'correct_boolean'],
    properties: {
      label: { type: 'string', pattern: '^[a-h]$' },
      content: { type: 'string' },
      correct_boolean: { type: ['boolean', 'null'] },
    },
  },
  QasMedia: {
    type: 'object',
    additionalProperties: false,
    required: ['media_asset_id', 'url', 'object_key', 'content_type', 'kind', 'index'],
    properties: {
      media_asset_id: { type: ['string', 'null'] },
      url: { type: 'string' },
      object_key: { type: 'string' },
      content_type: { type: 'string' },
      kind: { type: 'string', enum: ['image', 'ole_object', 'equation_object'] },
      index: { type: 'integer', minimum: 0 },
    },
  },
  QasSourceLocation: {
    type: 'object',
    additionalProperties: false,
    required: ['paragraph_start', 'paragraph_end', 'answer_evidence', 'answer_style'],
    properties: {
      paragraph_start: { type: 'integer', minimum: 0 },
      paragraph_end: { type: 'integer', minimum: 0 },
      answer_evidence: {
        description:
          "The evidence class of the answer (the contract's `source_location.answer_evidence`): a key line, a key table, a key list after the questions (`Đáp án: 01. B 02. C`), a marker on the option (`*` prefix, check-mark suffix, `x` column of an exam table), a true/false suffix or table, or the option formatted unlike its siblings (`DOCX_STYLE_HINT`).",
        enum: [
          'ANSWER_LINE',
          'ANSWER_KEY_TABLE',
          'ANSWER_KEY_LIST',
          'ANSWER_MARKER',
          'TRUE_FALSE_SUFFIX',
          'TRUE_FALSE_TABLE',
          'DOCX_STYLE_HINT',
          null,
        ],
      },
      answer_source: {
        description:
          'Where the answer came from, in words: `key-line` (`Đáp án: C`, `Lời giải: C`, `Correct Answer : A`, `Chọn C`), `key-table`, `key-list`, `marker`, `tf-suffix`, `tf-table`, `format-distinct` (colour, bold, underline, italic or highlight that the sibling options lack; a look every option shares is layout). Explicit keys win; evidence that disagrees raises `DOCX_NATIVE_ANSWER_CONFLICT` naming both. Always set by the native parser; absent from outputs of an external parser or the baseline reparse.',
        enum: ['key-line', 'key-table', 'key-list', 'marker', 'tf-suffix', 'tf-table', 'format-distinct', null],
      },
      answer_style: {
        description:
          'For `format-distinct`: the look that marked the option (`red`, another `color`, `highlight`, `underline`, `bold`, `italic`).',
        enum: ['red', 'color', 'highlight', 'underline', 'bold', 'italic', null],
      },
    },
  },
  QasQuestion: {
    type: 'object',
    additionalProperties: false,
    required: [
      'id',
      'number',
      'part',
      'group_id',
      'type',
      'type_confidence',
      'review_reason',
      'points',
      'content',
      'options',
      'sub_items',
      'correct_answer',
      'correct_answer_numeric',
      'solution',
      'formulas',
      'media',
      'source_location',
    ],
    properties: {
      id: { type: 'string' },
      number: { type: 'integer', minimum: 0 },
      part: { type: ['string', 'null'] },
      group_id: { type: ['string', 'null'] },
      type: ref('schemas', 'QuestionType'),
      type_confidence: { type: 'number', minimum: 0, maximum: 1 },
      review_reason: { enum: ['MEDIA', 'TABLE', 'GRAPH', null] },
      points: { type: ['number', 'null'] },
      content: { type: 'string' },
      options: { type: 'array', items: ref('schemas', 'QasOption') },
      sub_items: { type: 'array', items: ref('schemas', 'QasSubItem') },
      correct_answer: {
        oneOf: [
          { type: 'string' },
          { type: 'array', items: { type: 'string' } },
          { type: 'object', additionalProperties: { type: 'boolean' } },
          { type: 'null' },
        ],
      },
      correct_answer_numeric: { type: ['number', 'null'] },
      answer_confidence: {
        type: ['number', 'null'],
        minimum: 0,
        maximum: 1,
        description:
          "How far the answer can be trusted (null without one): an explicit key naming an option 0.97, a key list or table 0.95, a marker 0.93; a look (`format-distinct`) 0.5 + 0.45 × the share of the document's choice questions keyed by that look, less for another of the document's looks or a mark on a few characters; capped at 0.6 when other evidence disagrees, raised a little when it agrees. A look is an answer only where the document uses it as its key (it marks one option in a good part of its questions); a paper without a key gets no answers. `type_confidence` of a choice question is at most this. Set by the native parser.",
      },
      solution: { type: ['string', 'null'] },
      formulas: {
        type: 'array',
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['latex'],
          properties: { latex: { type: 'string' } },
        },
      },
      media: { type: 'array', items: ref('schemas', 'QasMedia') },
      source_location: ref('schemas', 'QasSourceLocation'),
    },
  },
  QasGroup: {
    type: 'object',
    additionalProperties: false,
    required: ['group_id', 'kind', 'parent_group_id', 'part', 'title', 'from', 'to', 'content'],
    properties: {
      group_id: { type: 'string' },
      kind: { type: 'string', enum: ['PART', 'SECTION', 'PASSAGE'] },
      parent_group_id: { type: ['string', 'null'] },
      part: { type: ['string', 'null'] },
      title: { type: 'string' },
      from: { type: ['integer', 'null'] },
      to: { type: ['integer', 'null'] },
      content: { type: 'string' },
    },
  },
  QasStats: {
    type: 'object',
    additionalProperties: false,
    required: [
      'total_questions',
      'total_images',
      'total_equation_objects',
      'total_formulas',
      'answered',
      'by_type',
      'paragraphs',
    ],
    properties: {
      total_questions: { type: 'integer', minimum: 0 },
      total_images: { type: 'integer', minimum: 0 },
      total_equation_objects: { type: 'integer', minimum: 0 },
      total_formulas: { type: 'integer', minimum: 0 },
      answered: { type: 'integer', minimum: 0 },
      by_type: {
        type: 'object',
        propertyNames: ref('schemas', 'QuestionType'),
        additionalProperties: { type: 'integer', minimum: 0 },
      },
      paragraphs: { type: 'integer', minimum: 0 },
      text_chars: {
        description:
          "The letters and digits of the document's text (paragraphs, table cells, text boxes, Word numbers). Always set by the native parser.",
        type: 'integer',
        minimum: 0,
      },
      text_assigned: {
        description:
          'The share of them the output assigns to a field (stem, option, statement, solution, answer, group title or text); the labels and key words the parser consumed are not counted, so a fully read document scores a little under 1. Under 0.75 the output carries `DOCX_NATIVE_TEXT_UNREAD`. Always set by the native parser.',
        type: 'number',
        minimum: 0,
        maximum: 1,
      },
      answer_sources: {
        description:
          'How many questions took their answer from each source (`none`: no answer found). Always set by the native parser.',
        type: 'object',
        additionalProperties: { type: 'integer', minimum: 0 },
      },
      conventions: {
        description:
          'The conventions the parser met in this document, sorted: `label:word|bare|auto|bracket|implicit|mid-paragraph`, `blocks-without-labels`, `options:lower-case`, `exam-table`, `key-table`, `key-list`, `level-headings`. Always set by the native parser.',
        type: 'array',
        items: { type: 'string' },
      },
    },
  },
  QasOutput: {
    type: 'object',
    additionalProperties: false,
    required: ['document_id', 'latency_ms', 'questions', 'groups', 'warnings', 'stats'],
    properties: {
      document_id: { type: 'string' },
      latency_ms: { type: 'number', minimum: 0 },
      questions: { type: 'array', items: ref('schemas', 'QasQuestion') },
      groups: { type: 'array', items: ref('schemas', 'QasGroup') },
      warnings: { type: 'array', items: ref('schemas', 'QasWarning') },
      stats: ref('schemas', 'QasStats'),
    },
  },
};
