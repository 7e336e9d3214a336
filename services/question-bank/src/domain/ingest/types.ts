// The ingest request after validation: the DOCX parser's QAS output (services/document-import
// openapi.json, QasOutput) plus the caller's fields. Question items stay open to legacy fields.

export interface IngestOption {
  label: string;
  content: string;
  is_correct?: boolean;
}

export interface IngestSubItem {
  label: string;
  content: string;
  correct_boolean?: boolean | null;
}

export interface IngestFormula {
  latex?: string;
  html?: string;
  mathml?: string;
}

export interface IngestMedia {
  media_asset_id?: string | null;
  url?: string;
  object_key?: string;
  content_type?: string;
  kind?: string;
  index?: number;
  width?: number;
  height?: number;
  alt?: string;
}

export type CorrectAnswer = string | string[] | Record<string, boolean | string> | null;

export interface IngestQuestion {
  id: string;
  number?: number;
  part?: string | null;
  group_id?: string | null;
  type?: string;
  preset_code?: string;
  template_code?: string;
  type_confidence?: number;
  review_reason?: string | null;
  points?: number | null;
  content: string;
  options?: IngestOption[];
  sub_items?: IngestSubItem[];
  correct_answer?: CorrectAnswer;
  correct_answer_numeric?: number | null;
  solution?: string | null;
  formulas?: IngestFormula[];
  media?: IngestMedia[];
  source_location?: Record<string, unknown> | null;
}

export interface IngestGroup {
  group_id: string;
  kind?: string;
  parent_group_id?: string | null;
  part?: string | null;
  title?: string;
  from?: number | null;
  to?: number | null;
  content?: string;
}

export interface IngestWarning {
  code: string;
  message: string;
  question_id?: string;
}

export interface IngestInput {
  document_id: string;
  latency_ms: number;
  questions: IngestQuestion[];
  groups?: IngestGroup[];
  warnings: IngestWarning[];
  stats: Record<string, unknown>;
  subjectId?: string;
  gradeLevel?: number;
  sourceFileName?: string;
  sourceImportJobId?: string;
  sourceMetadataJson?: Record<string, unknown>;
  tags?: string[];
}
