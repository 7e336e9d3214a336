// A 40-question exam as the exam service hands it to the attempt service at start (the question
// bank's selection shapes, DESIGN.md "Answer keys and grading"), shaped like a THPT paper: 28 single
// choice, 4 multiple choice with partial credit, 4 true/false groups on the ladder, 4 numeric short
// answers with tolerance; each answer body is what a client's autosave sends.
export const QUESTIONS = 40;
const HOUR = 3600_000;
const LABELS = ['A', 'B', 'C', 'D'];
const STEM =
  'Cho hàm số $y = f(x) = x^3 - 3x^2 + 2$ có đồ thị $(C)$. Gọi $d$ là tiếp tuyến của $(C)$ tại điểm có hoành độ ' +
  '$x_0$ thỏa mãn $f\u2033(x_0) = 0$. Xét các mệnh đề sau và chọn phương án đúng theo yêu cầu của đề bài.';

type Kind = 'SINGLE_CHOICE' | 'MULTIPLE_CHOICE' | 'TRUE_FALSE_GROUP' | 'SHORT_ANSWER';

export function kindOf(i: number): Kind {
  if (i < 28) return 'SINGLE_CHOICE';
  if (i < 32) return 'MULTIPLE_CHOICE';
  if (i < 36) return 'TRUE_FALSE_GROUP';
  return 'SHORT_ANSWER';
}

const questionId = (i: number) => `q${i + 1}`;

function choice(i: number, correct: number[]) {
  const options = LABELS.map((label, k) => ({
    id: `q${i + 1}o${k + 1}`,
    label,
    content: `Phương án ${label}: $x = ${k + 1}$ và $y = ${2 * k - 1}$, đồ thị đi qua điểm $M(${k}; ${k + 2})$`,
    isCorrect: correct.includes(k),
  }));
  const multiple = correct.length > 1;
  return {
    type: multiple ? 'MULTIPLE_CHOICE' : 'SINGLE_CHOICE',
    options,
    answerKeys: {
      correctOptionIds: options.filter((o) => o.isCorrect).map((o) => o.id),
      correctLabels: options.filter((o) => o.isCorrect).map((o) => o.label),
    },
    scoringRule: multiple
      ? { mode: 'PARTIAL', maxScore: 0.25, incorrectPenalty: 0.05, minScore: 0 }
      : { mode: 'EXACT', maxScore: 0.25 },
    score: 0.25,
  };
}

function question(i: number) {
  const kind = kindOf(i);
  const common = {
    id: `eq${i + 1}`,
    questionId: questionId(i),
    questionVersionId: `qv${i + 1}`,
    orderIndex: i,
    content: `<p>Câu ${i + 1}. ${STEM}</p>`,
    contentText: `Câu ${i + 1}. ${STEM}`,
    topicId: `topic-${i % 8}`,
    topicName: `Chủ đề ${i % 8}`,
  };
  if (kind === 'SINGLE_CHOICE') return { ...common, ...choice(i, [i % 4]) };
  if (kind === 'MULTIPLE_CHOICE') return { ...common, ...choice(i, [0, 2]) };
  if (kind === 'TRUE_FALSE_GROUP') {
    return {
      ...common,
      type: kind,
      options: [],
      subItems: LABELS.map((label, k) => ({
        label,
        content: `Mệnh đề ${label}: ${STEM}`,
        correctBoolean: k % 2 === 0,
      })),
      scoringRule: { mode: 'THPT_TRUE_FALSE_LADDER', maxScore: 1 },
      score: 1,
    };
  }
  return {
    ...common,
    type: kind,
    options: [],
    answerKeys: { acceptedAnswers: ['2,5'], tolerance: 0.01 },
    scoringRule: { mode: 'EXACT', maxScore: 0.5, tolerance: 0.01 },
    score: 0.5,
  };
}

/** One exam's start request (published, online, 90 minutes, open now, assigned, one attempt each). */
export function startBody(examId: string, student: string) {
  return {
    exam: {
      id: examId,
      organizationId: 'org-bench',
      title: 'Đề thi thử THPT môn Toán',
      status: 'PUBLISHED',
      deliveryMode: 'ONLINE',
      durationMinutes: 90,
      maxAttempts: 1,
      requiresAccessPassword: false,
      shuffleQuestions: false,
      shuffleOptions: false,
      randomizePerAttempt: false,
      openTime: new Date(Date.now() - HOUR).toISOString(),
      closeTime: new Date(Date.now() + 4 * HOUR).toISOString(),
      showResultMode: 'IMMEDIATE',
      resultsReleasedAt: null,
      subjectId: 'math',
      gradeLevel: 12,
    },
    access: { assigned: true, classroomId: 'c12a1', classroomName: '12A1' },
    questions: Array.from({ length: QUESTIONS }, (_, i) => question(i)),
    studentInfo: { fullName: `Học sinh ${student}`, accountCode: student },
  };
}

/** The answer fields a save of question `i` sends (and the store keeps); `seed` varies the choice. */
export function answerFields(i: number, seed: number) {
  const kind = kindOf(i);
  const blank = {
    selectedOptionIds: [] as string[],
    statementAnswers: [] as object[],
    textAnswer: null as string | null,
  };
  if (kind === 'SINGLE_CHOICE') return { ...blank, selectedOptionIds: [`q${i + 1}o${(seed % 4) + 1}`] };
  if (kind === 'MULTIPLE_CHOICE')
    return { ...blank, selectedOptionIds: [`q${i + 1}o1`, `q${i + 1}o${(seed % 3) + 2}`] };
  if (kind === 'TRUE_FALSE_GROUP') {
    return { ...blank, statementAnswers: LABELS.map((label, k) => ({ label, value: (seed + k) % 3 !== 0 })) };
  }
  return { ...blank, textAnswer: seed % 2 === 0 ? '2,5' : '2.49' };
}

/** The request body of an autosave: nested answer, the client's known version, its tab. */
export function saveBody(i: number, seed: number, clientVersion: number) {
  const { selectedOptionIds, statementAnswers, textAnswer } = answerFields(i, seed);
  const kind = kindOf(i);
  const answer =
    kind === 'TRUE_FALSE_GROUP'
      ? { statementAnswers }
      : kind === 'SHORT_ANSWER'
        ? { textAnswer }
        : { selectedOptionIds };
  return { questionId: questionId(i), answer, clientVersion, sourceTabId: 'tab-1' };
}

export { questionId };
