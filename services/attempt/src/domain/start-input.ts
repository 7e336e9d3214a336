// The start request as validated by schemas/start.ts (defaults applied).
export interface ExamSnapshot {
  id: string;
  organizationId: string;
  title: string;
  status: string;
  deliveryMode: 'ONLINE' | 'OFFLINE';
  durationMinutes: number | null;
  maxAttempts: number | null;
  requiresAccessPassword: boolean;
  shuffleQuestions: boolean;
  shuffleOptions: boolean;
  randomizePerAttempt: boolean;
  openTime: Date | null;
  closeTime: Date | null;
  showResultMode: 'IMMEDIATE' | 'AFTER_CLOSE' | 'MANUAL';
  resultsReleasedAt: Date | null;
  subjectId: string | null;
  gradeLevel: number | null;
}

export interface AccessInput {
  assigned: boolean;
  attemptLimit: number | null;
  passwordVerified: boolean;
  accessLink: { id: string; active: boolean; maxStudents: number | null } | null;
  classroomId: string | null;
  classroomName: string | null;
}

export interface QuestionInput extends Record<string, unknown> {
  questionId: string;
  type: string;
  options: Array<{ id: string } & Record<string, unknown>>;
  optionOrder?: string[];
  orderIndex?: number;
  score?: number;
  scoringRule?: { mode: string; maxScore?: number } & Record<string, unknown>;
}

export interface StartInput {
  exam: ExamSnapshot;
  access: AccessInput;
  questions: QuestionInput[];
  studentInfo: Record<string, unknown> | null;
}
